package texture

import (
	"fmt"
	"image"
	"math"
	"strconv"
)

// Replaceable texture ids used in MDX TEXS records
// (docs/rendering.md#replaceable-textures-and-team-colour).
const (
	ReplaceableTeamColor = 1
	ReplaceableTeamGlow  = 2
)

// Team numbers, as Reforged numbers its players and its
// ReplaceableTextures\TeamColor\TeamColorNN files
// (docs/rendering.md#replaceable-textures-and-team-colour): Players
// player colours (0-23, red to peanut), then the four neutral players
// TeamNeutral (neutral hostile), 25 (victim), 26 (extra) and
// TeamNeutralPassive, which all wear the neutral colour; Teams numbers in
// all. Classic data has files for 0-15 only; the others take the built-in
// colours.
const (
	Players            = 24
	TeamNeutral        = 24
	TeamNeutralPassive = 27
	Teams              = 28
)

// neutralRGB is the neutral players' colour: near black, as Reforged's
// TeamColor24-27 textures are.
var neutralRGB = [3]uint8{46, 45, 46}

// teamRGB holds players 0-15 as the reference renders use them, so our
// team colour matches pixel for pixel, then players 16-23, then the four
// neutral players (docs/rendering.md#replaceable-textures-and-team-colour).
var teamRGB = [Teams][3]uint8{
	{255, 3, 3}, {0, 66, 255}, {28, 230, 185}, {84, 0, 129},
	{255, 252, 1}, {254, 138, 14}, {32, 192, 0}, {229, 91, 176},
	{149, 150, 151}, {126, 191, 241}, {16, 98, 70}, {78, 42, 4},
	{155, 0, 0}, {0, 0, 195}, {0, 234, 255}, {190, 0, 254},
	{236, 205, 134}, {247, 164, 139}, {192, 255, 128}, {220, 185, 236},
	{79, 79, 85}, {236, 240, 255}, {0, 120, 30}, {164, 111, 51},
	neutralRGB, neutralRGB, neutralRGB, neutralRGB,
}

// TeamColorRGB returns the built-in colour of team number 0-27 (see
// Teams); ok is false for other numbers.
func TeamColorRGB(team int) (rgb [3]uint8, ok bool) {
	if team < 0 || team >= Teams {
		return [3]uint8{}, false
	}
	return teamRGB[team], true
}

// teamNames name the team numbers: the players' colours, then the
// neutral players.
var teamNames = [Teams]string{"red", "blue", "teal", "purple", "yellow", "orange", "green", "pink",
	"gray", "lightblue", "darkgreen", "brown", "maroon", "navy", "turquoise", "violet",
	"wheat", "peach", "mint", "lavender", "coal", "snow", "emerald", "peanut",
	"neutral", "neutralvictim", "neutralextra", "neutralpassive"}

// Team is the colour a model's team-coloured parts take: a player's
// (whose ReplaceableTextures files are used when the texture sources have
// them) or any colour (always drawn from the built-in stand-ins). The zero
// Team is player 0, red.
type Team struct {
	player int
	rgb    [3]uint8
	custom bool
}

// Player is team number n's colour: a player 0-23 or a neutral player
// 24-27 (see Teams).
func Player(n int) Team { return Team{player: n} }

// TeamRGB is a team colour of any colour, with no texture file behind it.
func TeamRGB(rgb [3]uint8) Team { return Team{rgb: rgb, custom: true} }

// Player returns the player index and whether t is a player's colour.
func (t Team) Player() (int, bool) { return t.player, !t.custom }

// RGB is the team's colour: the custom one, or the player's from the
// built-in table (neutral's for a player without one).
func (t Team) RGB() [3]uint8 {
	if t.custom {
		return t.rgb
	}
	if rgb, ok := TeamColorRGB(t.player); ok {
		return rgb
	}
	return neutralRGB
}

// String names t as the command line writes it: the colour name of a player,
// "#rrggbb" for a custom colour.
func (t Team) String() string {
	if t.custom {
		return fmt.Sprintf("#%02x%02x%02x", t.rgb[0], t.rgb[1], t.rgb[2])
	}
	if t.player >= 0 && t.player < len(teamNames) {
		return teamNames[t.player]
	}
	return strconv.Itoa(t.player)
}

// MarshalText writes t as String does.
func (t Team) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// replaceableNames maps replaceable ids to paths under ReplaceableTextures.
var replaceableNames = map[uint32]string{
	11: `Cliff\Cliff0`,
	31: `LordaeronTree\LordaeronSummerTree`,
	32: `AshenvaleTree\AshenTree`,
	33: `BarrensTree\BarrensTree`,
	34: `NorthrendTree\NorthTree`,
	35: `Mushroom\MushroomTree`,
	36: `RuinsTree\RuinsTree`,
	37: `OutlandMushroomTree\MushroomTree`,
}

// ReplaceablePath returns the file a replaceable id stands for, for the
// given team, e.g. `ReplaceableTextures\TeamColor\TeamColor03.blp`. hd
// selects the Reforged ".dds" extension (model version > 800). ok is false
// for ids with no file (0, 21 and unknown ids).
func ReplaceablePath(id uint32, team int, hd bool) (path string, ok bool) {
	ext := ".blp"
	if hd {
		ext = ".dds"
	}
	var name string
	switch id {
	case ReplaceableTeamColor:
		name = fmt.Sprintf(`TeamColor\TeamColor%02d`, team)
	case ReplaceableTeamGlow:
		name = fmt.Sprintf(`TeamGlow\TeamGlow%02d`, team)
	default:
		name, ok = replaceableNames[id]
		if !ok {
			return "", false
		}
	}
	return `ReplaceableTextures\` + name + ext, true
}

// TeamColorTexture is the stand-in for a missing TeamColorNN file: 8×8 of
// the player's colour, as the reference harness generates it. Its levels
// are shared by every stand-in of that colour and must not be modified.
func TeamColorTexture(rgb [3]uint8) *Texture {
	return &Texture{Levels: standInLevels(false, rgb), Format: FormatSynthetic}
}

// TeamGlowTexture is the stand-in for a missing TeamGlowNN file: 32×32 of
// the player's colour with alpha falling off from the centre as
// 255·(1−r)², the reference harness's formula. Its levels are shared by
// every stand-in of that colour and must not be modified.
func TeamGlowTexture(rgb [3]uint8) *Texture {
	return &Texture{Levels: standInLevels(true, rgb), Format: FormatSynthetic}
}

// standIns remembers the levels of the team stand-ins made so far: a
// model asks for its team colour and glow at every render, and making
// the glow (with its mip chain) was 1.5 % of a small unit's warm render.
// Colours are few (the players', and what callers choose), but any
// number can be asked for.
var standIns = memo[standInKey, []*image.NRGBA]{max: 256}

type standInKey struct {
	glow bool
	rgb  [3]uint8
}

// standInLevels returns the levels of the team glow (glow) or colour
// stand-in of colour rgb, with no room to append to.
func standInLevels(glow bool, rgb [3]uint8) []*image.NRGBA {
	return standIns.get(standInKey{glow, rgb}, func() []*image.NRGBA {
		var levels []*image.NRGBA
		if glow {
			levels = teamGlowLevels(rgb)
		} else {
			levels = teamColorLevels(rgb)
		}
		return levels[:len(levels):len(levels)]
	})
}

func teamColorLevels(rgb [3]uint8) []*image.NRGBA {
	const n = 8
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = rgb[0], rgb[1], rgb[2], 255
	}
	return mipChain(img)
}

func teamGlowLevels(rgb [3]uint8) []*image.NRGBA {
	const n = 32
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			dx := (float64(x) + 0.5 - n/2) / (n / 2)
			dy := (float64(y) + 0.5 - n/2) / (n / 2)
			r := math.Min(1, math.Hypot(dx, dy))
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2] = rgb[0], rgb[1], rgb[2]
			img.Pix[i+3] = uint8(math.Round(255 * (1 - r) * (1 - r)))
		}
	}
	return mipChain(img)
}

// WhiteTexture is the 2×2 opaque white texture that stands in for a
// missing file, as in the reference viewer. Every stand-in shares one
// image, which must not be modified; IsStandIn recognises it.
func WhiteTexture() *Texture {
	return &Texture{Levels: []*image.NRGBA{whiteLevel}, Format: FormatSynthetic}
}

var whiteLevel = func() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img
}()

// IsStandIn reports whether t is the white stand-in Load returns for a
// texture it could not find or decode (or a copy of it with other
// wrapping or mip levels added): a caller that has a better neutral value
// than white, such as an HD material's normal map, uses that instead.
func IsStandIn(t *Texture) bool { return t != nil && len(t.Levels) > 0 && t.Levels[0] == whiteLevel }

// mipChain builds a box-filtered mip chain (premultiplied averaging) for
// generated textures.
func mipChain(img *image.NRGBA) []*image.NRGBA {
	levels := []*image.NRGBA{img}
	for {
		src := levels[len(levels)-1]
		w, h := src.Rect.Dx(), src.Rect.Dy()
		if w == 1 && h == 1 {
			return levels
		}
		nw, nh := max(w/2, 1), max(h/2, 1)
		dst := image.NewNRGBA(image.Rect(0, 0, nw, nh))
		for y := range nh {
			for x := range nw {
				var acc [4]int
				for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					sx, sy := min(2*x+d[0], w-1), min(2*y+d[1], h-1)
					p := src.Pix[src.PixOffset(sx, sy):]
					a := int(p[3])
					acc[0] += int(p[0]) * a
					acc[1] += int(p[1]) * a
					acc[2] += int(p[2]) * a
					acc[3] += a
				}
				q := dst.Pix[dst.PixOffset(x, y):]
				if acc[3] > 0 {
					q[0] = uint8((acc[0] + acc[3]/2) / acc[3])
					q[1] = uint8((acc[1] + acc[3]/2) / acc[3])
					q[2] = uint8((acc[2] + acc[3]/2) / acc[3])
				}
				q[3] = uint8((acc[3] + 2) / 4)
			}
		}
		levels = append(levels, dst)
	}
}
