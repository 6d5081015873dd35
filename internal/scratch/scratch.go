// Package scratch makes the temporary files a batch spills to when what
// it would otherwise hold grows with the number of models: sort runs,
// the input list, where each model's journal line is.
package scratch

import "os"

// Create makes a temporary file in the system's temporary folder named
// after pattern (as os.CreateTemp) and removes its name at once, so that
// the file is gone with the process however it ends, where the system
// lets an open file be removed; elsewhere Close removes it.
func Create(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

// Close closes f, a file of Create, and removes its name if Create could
// not.
func Close(f *os.File) error {
	err := f.Close()
	os.Remove(f.Name())
	return err
}
