//go:build ignore

// Command gen writes the full-size hostile-input corpus of files and
// renders (textures, MDL text, particle storms, a parent cycle, special
// files as models, a texture root with a link leading out of it) into a
// folder, for scripts/hostile.sh:
//
//	go run ./testdata/hostile/gen.go -o /tmp/hostile
//
// The files are large (the biggest is a 100 MB line of MDL vertices) and
// made in a few seconds, so they are not kept in the repository. The unit
// tests build the same cases small, with the same code (internal/hostile).
// The special files (a FIFO, links to /dev/zero and /dev/urandom) need a
// Unix system.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mdxrender/mdxrender/internal/hostile"
)

func main() {
	out := flag.String("o", "hostile-out", "folder to write the cases into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	write := func(name string, data []byte) {
		p := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-34s %11d bytes\n", name, len(data))
	}
	// texture writes a texture case and a quad model that uses it, for
	// `mdxrender render`.
	texture := func(name string, data []byte) {
		write(name, data)
		write("uses_"+name+".mdl", hostile.MDLTextured(name))
	}

	// Textures.
	texture("blp_frame8192_in_64.blp", hostile.BLP1Streams(64, 64, hostile.BaselineJPEG(8192, 8192, 4)))
	texture("blp_4096_13_full_frames.blp", hostile.BLP1Streams(4096, 4096, hostile.Repeat(hostile.BaselineJPEG(4096, 4096, 4), 13)...))
	texture("blp_8192_14_levels.blp", blpChain(8192, 14))
	texture("blp_progressive_1800_scans.blp", hostile.BLP1Streams(8192, 8192, hostile.ProgressiveJPEG(8192, 8192, 4, 1800)))
	texture("jpg_progressive_1800_scans.jpg", hostile.ProgressiveJPEG(8192, 8192, 3, 1800))
	texture("jpg_sequential_500_scans.jpg", hostile.SequentialJPEG(2048, 2048, 3, 500))
	texture("png16_rgba_8192.png", hostile.PNG(8192, 8192, 16, hostile.PNGRGBA))
	// The largest PNG the default budget lets through: 8-bit RGBA
	// 8192×8192, decoded straight to its final picture (256 MiB).
	texture("png8_rgba_8192.png", hostile.PNG(8192, 8192, 8, hostile.PNGRGBA))
	// Every one of a BLP's 16 level slots filled with a full 8192² frame.
	texture("blp_8192_16_full_frames.blp", hostile.BLP1Streams(8192, 8192, hostile.Repeat(hostile.BaselineJPEG(8192, 8192, 4), 16)...))
	// A plain model for `render --size 8192 --ssaa 2`.
	write("quad.mdl", hostile.MDLTextured(""))

	// Geometry: one 100 MB line of 6.5 million vertices, and a model at
	// the default geometry limits (512 Ki vertices, 1 Mi triangles).
	write("mdl_vertices_6.5M.mdl", hostile.MDLGeometry(6_500_000, 1))
	write("mdl_at_quota.mdl", hostile.MDLGeometry(512<<10, 1<<20))
	// The same geometry in 64 sequences: a sprite sheet of it asks for 512
	// heavy frames.
	write("mdl_at_quota_64_sequences.mdl", hostile.WithSequences(hostile.MDLGeometry(512<<10, 1<<20), 64))

	// Particle storms: the rate is the largest float32, the lifespan ten
	// minutes (the longest pre-roll).
	const maxRate, maxLife = 3.4e38, 600
	write("pre2_10.mdl", hostile.MDLEmitters("pre2_10", hostile.Emitters{PRE2: 10, Rate: maxRate, Life: maxLife}))
	write("pre2_200.mdl", hostile.MDLEmitters("pre2_200", hostile.Emitters{PRE2: 200, Rate: maxRate, Life: maxLife}))
	write("pre2_2000.mdl", hostile.MDLEmitters("pre2_2000", hostile.Emitters{PRE2: 2000, Rate: maxRate, Life: maxLife}))
	write("pre2_200_short.mdl", hostile.MDLEmitters("pre2_200_short", hostile.Emitters{PRE2: 200, Rate: maxRate, Life: 1}))
	// Ribbon rates are integers in MDX; 4e9 is about the largest.
	write("ribbon_500.mdl", hostile.MDLEmitters("ribbon_500", hostile.Emitters{Ribbons: 500, Rate: 4e9, Life: maxLife}))
	write("ribbon_500_short.mdl", hostile.MDLEmitters("ribbon_500_short", hostile.Emitters{Ribbons: 500, Rate: 4e9, Life: 1}))
	write("ribbon_storm.mdl", hostile.MDLEmitters("ribbon_storm", hostile.Emitters{Ribbons: 1, Rate: 4e9, Life: maxLife}))
	// 100 PREM emitters spawning a 2,000-vertex model.
	write("prem_many_spawned.mdl", hostile.MDLSpawned(2000))
	write("prem_many.mdl", hostile.MDLEmitters("prem_many", hostile.Emitters{PREM: 100, Rate: 1000, Life: 10, SpawnPath: "prem_many_spawned.mdl"}))

	// Simulation paths whose cost is not the live count: tracks of tens of
	// thousands of keys, squirting emitters, a hundred thousand idle
	// emitters, a chain of a hundred thousand bones, spawned models with
	// many bones or keyed bones.
	write("storm_pre2_keys.mdl", hostile.MDLStorm("storm_pre2_keys", hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 1e5, Life: maxLife}, Keys: 50_000}))
	write("storm_pre2_squirt.mdl", hostile.MDLStorm("storm_pre2_squirt", hostile.Storm{Emitters: hostile.Emitters{PRE2: 10, Rate: 1e5, Life: maxLife}, Keys: 50_000, Squirt: true}))
	write("storm_pre2_idle.mdl", hostile.MDLStorm("storm_pre2_idle", hostile.Storm{Emitters: hostile.Emitters{PRE2: 100_000, Rate: 0, Life: maxLife}}))
	write("storm_ribbon_keys.mdl", hostile.MDLStorm("storm_ribbon_keys", hostile.Storm{Emitters: hostile.Emitters{Ribbons: 10, Rate: 100, Life: maxLife}, Keys: 100_000}))
	write("storm_chain.mdl", hostile.MDLStorm("storm_chain", hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 100, Life: maxLife}, Bones: 100_000}))
	write("storm_bone_keys.mdl", hostile.MDLStorm("storm_bone_keys", hostile.Storm{Emitters: hostile.Emitters{PRE2: 1, Rate: 100, Life: maxLife}, Bones: 10, Keys: 100_000}))
	write("storm_prem_bones_spawned.mdl", hostile.MDLSpawnedBones(200, 200, 2))
	write("storm_prem_bones.mdl", hostile.MDLStorm("storm_prem_bones", hostile.Storm{Emitters: hostile.Emitters{PREM: 100, Rate: 1000, Life: maxLife, SpawnPath: "storm_prem_bones_spawned.mdl"}}))
	write("storm_prem_keys_spawned.mdl", hostile.MDLSpawnedBones(20, 10, 50_000))
	write("storm_prem_keys.mdl", hostile.MDLStorm("storm_prem_keys", hostile.Storm{Emitters: hostile.Emitters{PREM: 10, Rate: 1000, Life: 10, SpawnPath: "storm_prem_keys_spawned.mdl"}}))
	write("storm_prem_small_spawned.mdl", hostile.MDLSpawned(10))
	write("storm_prem_small.mdl", hostile.MDLStorm("storm_prem_small", hostile.Storm{Emitters: hostile.Emitters{PREM: 100, Rate: 1000, Life: maxLife, SpawnPath: "storm_prem_small_spawned.mdl"}}))

	// A parent cycle through 1,000 bones.
	write("mdl_cycle_1000.mdl", hostile.MDLCycle(1000))
	// A texture path, a sequence name and a bone name of 1 MB each.
	write("mdl_long_strings.mdl", hostile.MDLLongStrings(1<<20))

	// Special files where a model or a texture is expected: a FIFO
	// (opening it blocks until a writer comes) and links to endless
	// devices.
	special := func(name string, make func(string) error) {
		p := filepath.Join(*out, name)
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			log.Fatal(err)
		}
		if err := make(p); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-34s %s\n", name, "special")
	}
	special("fifo.mdx", func(p string) error { return syscall.Mkfifo(p, 0o644) })
	special("dev_zero.mdx", func(p string) error { return os.Symlink("/dev/zero", p) })
	special("dev_urandom.mdx", func(p string) error { return os.Symlink("/dev/urandom", p) })

	// A texture root whose folder "sub" is a link to a folder outside it,
	// and a model (in a folder of its own) naming a texture through it:
	// the outside folder must not be opened or listed, nor named.
	write("outside/secret.blp", hostile.BLP1Streams(64, 64, hostile.BaselineJPEG(64, 64, 4)))
	write("linkuser/uses_link.mdl", hostile.MDLTextured(`sub\secret.blp`))
	if err := os.MkdirAll(filepath.Join(*out, "texroot"), 0o755); err != nil {
		log.Fatal(err)
	}
	outside, err := filepath.Abs(filepath.Join(*out, "outside"))
	if err != nil {
		log.Fatal(err)
	}
	special("texroot/sub", func(p string) error { return os.Symlink(outside, p) })

	// One budget per model. Sixteen texture names for one 8192² PNG, in a
	// map (one block) and as loose copies: each texture is within the
	// limit on its own, their sum is not.
	png8192 := hostile.PNG(8192, 8192, 8, hostile.PNGRGBA)
	var names16 []string
	for i := range 16 {
		names16 = append(names16, fmt.Sprintf("t%d.png", i))
		write("loose16/"+names16[i], png8192)
	}
	write("loose16/m.mdl", hostile.MDLTexturedMany(names16))
	write("map_16_names_one_png.w3x", manyNames(3, hostile.MDLTexturedMany(names16), names16, hostile.MPQBlock{Data: png8192}))
	// Eight 8×8 BLPs, each padded to 500 MiB in a map of a few MB (16 MiB
	// sectors: shift 15).
	blp8 := hostile.BLP1Streams(8, 8, hostile.BaselineJPEG(8, 8, 4))
	var blps []string
	var blocks []hostile.MPQBlock
	for i := range 8 {
		blps = append(blps, fmt.Sprintf("b%d.blp", i))
		blocks = append(blocks, hostile.MPQPadded(15, blp8, 500<<20))
	}
	write("map_8_padded_blps.w3x", manyBlocks(15, hostile.MDLTexturedMany(blps), blps, blocks))
	// Twenty texture names for one 127 MiB bzip2 block, for a batch
	// (which reads each to hash it, then to draw it): eight 16 MiB
	// sectors of zeros, the last one short.
	var names20 []string
	for i := range 20 {
		names20 = append(names20, fmt.Sprintf("z%d.blp", i))
	}
	const size127 = 127 << 20
	var bz [][]byte
	for left := size127; left > 0; left -= min(left, 16<<20) {
		bz = append(bz, hostile.Bzip2Sector(0, min(left, 16<<20)))
	}
	bzBlock := hostile.MPQBlock{Raw: hostile.SectorTable(bz), Size: size127, Flags: 0x80000200}
	write("map_20_names_one_block.w3x", manyNames(15, hostile.MDLTexturedMany(names20), names20, bzBlock))
	// An unpacked map whose war3mapImported folder is what a batch is
	// given: the map's root above it must not be searched.
	write("above/war3map.w3i", []byte("map info"))
	write("above/Textures/secret.blp", blp8)
	write("above/in/war3mapImported/m.mdl", hostile.MDLTextured(`Textures\secret.blp`))

	// Archives for extraction: a 2 GiB zlib bomb, the same bomb under 64
	// names, and a 64 MiB one under 64 names (which writes what the
	// extraction budget allows).
	var names64 []string
	for i := range 64 {
		names64 = append(names64, fmt.Sprintf("bomb%02d.bin", i))
	}
	bomb := hostile.MPQZeros(15, 1<<31-1)
	write("extract_bomb_2g.mpq", hostile.MPQBomb(15, bomb, []string{"bomb.bin"}))
	write("extract_bomb_64_names.mpq", hostile.MPQBomb(15, bomb, names64))
	write("extract_bomb_64m_64_names.mpq", hostile.MPQBomb(15, hostile.MPQZeros(15, 64<<20), names64))
	// A map whose model names climb out, are absolute or have empty
	// parts, and one whose entry sits below a folder the output folder
	// holds as a link (the script makes out/link -> ../elsewhere).
	quad := hostile.MDLTextured("")
	odd := []string{`..\a.mdl`, `.\b.mdl`, `c\\d.mdl`, `\e.mdl`, `f\.\g.mdl`, `h\..\i.mdl`, `/j.mdl`,
		`k\\\l.mdl`, `m.mdl\`, `n.mdl`, `link\o.mdl`, `p\..\..\q.mdl`, `C:\r.mdl`}
	oddFiles := map[string][]byte{}
	for _, n := range odd {
		oddFiles[n] = quad
	}
	write("batch_odd_names.w3x", hostile.MPQFiles(oddFiles, odd))
	write("extract_link.mpq", hostile.MPQFiles(map[string][]byte{`link\pwned.txt`: []byte("pwned")}, []string{`link\pwned.txt`}))
	// Names with control characters, and one of a megabyte, for archive ls.
	long := strings.Repeat("n", 1<<20) + ".txt"
	ctl := []string{"esc\x1b[2Jname.txt", "nul\x00name.txt", "bell\x07.txt", long}
	ctlFiles := map[string][]byte{}
	for _, n := range ctl {
		ctlFiles[n] = []byte("x")
	}
	write("ls_names.mpq", hostile.MPQFiles(ctlFiles, ctl))

	// Archives that cost at open or listing: a listfile of 16 Mi tiny
	// names, 200 unnamed entries of 32 MiB bzip2 sectors (sniffed for a
	// name), a million folders, names past 260 bytes, 64 Ki names for one
	// block, a compressed hash table that declares 256 MiB.
	const bzRun = 32 << 20
	write("mpq_listfile_16Mi_names.mpq", hostile.MPQListfileBomb(10, 16<<20))
	write("mpq_unnamed_bzip2_200.mpq", hostile.MPQUnnamed(16, 200, hostile.SectorTable([][]byte{hostile.Bzip2Sector(0, bzRun)}), bzRun))
	write("mpq_deep16_names.mpq", hostile.MPQManyNames(65536, 15))
	write("mpq_deep500_names.mpq", hostile.MPQManyNames(65536, 500))
	write("mpq_names_one_block.mpq", hostile.MPQManyNames(1<<16, 0))
	// The most names the default read limit lets an archive hold in
	// memory, and a million (refused).
	write("mpq_names_440k.mpq", hostile.MPQManyNames(440_000, 0))
	write("mpq_names_1m.mpq", hostile.MPQManyNames(1<<20, 0))
	write("mpq_compressed_table_256Mi.mpq", hostile.MPQCompressedTable(1<<24))

	// Batch configurations: nesting in every form each format has, floods
	// of unknown keys and of list elements, names that would drive a
	// terminal.
	for _, c := range []struct {
		name  string
		how   hostile.Nesting
		depth int
	}{
		{"toml_header_16000", hostile.TOMLHeader, 16_000}, {"toml_header_100000", hostile.TOMLHeader, 100_000},
		{"toml_quoted_key_500000", hostile.TOMLQuotedKey, 500_000}, {"toml_inline_170000", hostile.TOMLInline, 170_000},
		{"toml_array_500000", hostile.TOMLArray, 500_000}, {"yaml_flow_340000", hostile.YAMLFlow, 340_000},
		{"yaml_block_1400", hostile.YAMLBlock, 1400}, {"yaml_compact_500000", hostile.YAMLCompact, 500_000},
		{"json_object_140000", hostile.JSONObject, 140_000},
	} {
		ext, b := hostile.NestedConfig(c.how, c.depth)
		write("config/"+c.name+ext, b)
	}
	write("config/yaml_unknown_keys_150000.yaml", hostile.UnknownKeysConfig(".yaml", 150_000, 0))
	write("config/yaml_unknown_keys_1000000.yaml", hostile.UnknownKeysConfig(".yaml", 1_000_000, 0))
	write("config/yaml_unknown_keys_9800_in_overrides.yaml", hostile.UnknownKeysConfig(".yaml", 9_800, 200))
	write("config/toml_unknown_keys_9800_in_overrides.toml", hostile.UnknownKeysConfig(".toml", 9_800, 200))
	write("config/yaml_list_1MiB.yaml", []byte("team_colors: ["+strings.Repeat("1,", 524_270)+"1]\n"))
	write("config/toml_list_1MiB.toml", []byte("team_colors = ["+strings.Repeat("1,", 524_270)+"1]\n"))
	write("config/config_escapes.yaml", hostile.ConfigEscapes())
}

// manyNames is a map of sectors of 512<<shift bytes holding the model
// m.mdl, a (listfile), and one block that every one of names stands for.
func manyNames(shift uint16, model []byte, names []string, block hostile.MPQBlock) []byte {
	blocks := make([]hostile.MPQBlock, len(names))
	for i := range blocks {
		blocks[i] = block
	}
	return manyBlocks(shift, model, names, blocks)
}

// manyBlocks is a map of sectors of 512<<shift bytes holding the model
// m.mdl, a (listfile), and the blocks under names; equal blocks are
// stored once.
func manyBlocks(shift uint16, model []byte, names []string, blocks []hostile.MPQBlock) []byte {
	list := "m.mdl\r\n" + strings.Join(names, "\r\n")
	all := []hostile.MPQBlock{{Data: model, Sectors: true}, {Data: []byte(list)}}
	mnames := []hostile.MPQName{{Name: "m.mdl", Block: 0}, {Name: "(listfile)", Block: 1}}
	for i, n := range names {
		b := len(all)
		if i > 0 && sameBlock(blocks[i], blocks[i-1]) {
			b = len(all) - 1
		} else {
			all = append(all, blocks[i])
		}
		mnames = append(mnames, hostile.MPQName{Name: n, Block: b})
	}
	return hostile.MPQ(shift, all, mnames)
}

// sameBlock reports whether a and b hold the same bytes as they are built.
func sameBlock(a, b hostile.MPQBlock) bool {
	return a.Size == b.Size && a.Flags == b.Flags && a.Sectors == b.Sectors && bytes.Equal(a.Raw, b.Raw) && bytes.Equal(a.Data, b.Data)
}

// blpChain is a BLP1 JPEG of size×size with n levels, each a JPEG frame
// of its level's own size.
func blpChain(size, n int) []byte {
	var levels [][]byte
	for i := range n {
		s := max(size>>i, 1)
		levels = append(levels, hostile.BaselineJPEG(s, s, 4))
	}
	return hostile.BLP1Streams(size, size, levels...)
}
