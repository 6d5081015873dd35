package inspect

import (
	"encoding/json"
	"math"
	"strconv"
)

// Failure is the JSON object `mdxrender inspect --json` prints in place of
// a Report for a file that could not be read.
type Failure struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// Float is a float32 whose JSON form is a number, or the string "NaN",
// "+Inf" or "-Inf" for the values plain encoding/json refuses (hostile
// files do contain them).
type Float float32

// MarshalJSON writes f as the shortest number that reads back the same
// float32, or as a string when f is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	}
	return json.Marshal(float32(f))
}

// UnmarshalJSON reads what MarshalJSON writes, so a report read back from
// JSON holds the same values.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*f = Float(math.NaN())
		return nil
	case `"+Inf"`:
		*f = Float(math.Inf(1))
		return nil
	case `"-Inf"`:
		*f = Float(math.Inf(-1))
		return nil
	}
	var v float32
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// String prints f with the fewest digits that read back the same float32.
func (f Float) String() string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }
