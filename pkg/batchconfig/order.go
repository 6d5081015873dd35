package batchconfig

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// checkOrder gives, below a key ("" for the top, "[]" for a list's
// elements), the order in which batch.Options.Validate checks the keys
// and the text forms of some of them are read: problems are reported in
// that order, whichever step found them. A key it does not list comes
// after those it does, list elements in their order; elsewhere problems
// keep the order they were found in.
var checkOrder = map[string][]string{
	"": {"inputs", "game_data", "map_root", "limits", "output", "jobs", "texture_cache_mb", "model_timeout", "shard", "render",
		"views", "sequences", "team_colors", "sheet", "check", "overrides"},
	"output": {"dir", "name", "formats"},
	"render": {"size", "ssaa", "background", "yaw", "pitch", "team_color", "seed", "step_ms", "preroll_ms", "time",
		"margin", "zoom", "missing_textures"},
	"overrides[]": {"match", "render", "sequences", "team_colors", "views"},
	"overrides[].render": {"size", "ssaa", "background", "yaw", "pitch", "team_color", "time", "seed", "step_ms",
		"preroll_ms", "margin", "zoom"},
}

// keyOf is the key an error is about; "" for one about none.
func keyOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Key
	}
	return ""
}

// compareKeys orders two dotted keys ("overrides[2].render.time") by
// checkOrder.
func compareKeys(a, b string) int {
	as, bs := keyParts(a), keyParts(b)
	parent := ""
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := compareParts(parent, as[i], bs[i]); c != 0 {
			return c
		}
		if strings.HasPrefix(as[i], "[") {
			parent += "[]"
		} else {
			parent = join(parent, as[i])
		}
	}
	return len(as) - len(bs)
}

// compareParts orders two parts of keys below parent.
func compareParts(parent, a, b string) int {
	if a == b {
		return 0
	}
	if order, ok := checkOrder[parent]; ok {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		if ia != ib {
			return ia - ib
		}
	}
	na, errA := strconv.Atoi(strings.Trim(a, "[]"))
	nb, errB := strconv.Atoi(strings.Trim(b, "[]"))
	if errA == nil && errB == nil && strings.HasPrefix(a, "[") && strings.HasPrefix(b, "[") {
		return na - nb
	}
	return 0
}

// keyParts splits a key into its names and list indexes:
// "overrides[2].render" is "overrides", "[2]", "render".
func keyParts(key string) []string {
	var out []string
	for _, name := range strings.Split(key, ".") {
		for {
			i := strings.IndexByte(name, '[')
			if i < 0 {
				break
			}
			if i > 0 {
				out = append(out, name[:i])
			}
			j := strings.IndexByte(name[i:], ']')
			if j < 0 {
				break
			}
			out = append(out, name[i:i+j+1])
			name = name[i+j+1:]
		}
		if name != "" {
			out = append(out, name)
		}
	}
	return out
}
