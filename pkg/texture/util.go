package texture

import (
	"fmt"
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

func typeName(v any) string { return fmt.Sprintf("%T", v) }
