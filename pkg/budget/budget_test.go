package budget

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestKeysRoundTrip(t *testing.T) {
	for _, k := range Kinds() {
		got, ok := Lookup(k.String())
		if !ok || got != k {
			t.Errorf("Lookup(%q) = %v, %v", k.String(), got, ok)
		}
		if k.Default() <= 0 {
			t.Errorf("%s has no default", k)
		}
		var l Limits
		l.Set(k, 7)
		if l.Get(k) != 7 {
			t.Errorf("%s: Set then Get = %d", k, l.Get(k))
		}
		for _, o := range Kinds() {
			if o != k && l.Get(o) != o.Default() {
				t.Errorf("setting %s changed %s", k, o)
			}
		}
	}
	if _, ok := Lookup("texture-pixels"); !ok {
		t.Error("'-' for '_' not accepted")
	}
	if _, ok := Lookup("file_size"); ok {
		t.Error("an unknown key was found")
	}
}

func TestChargeRefusesAndKeepsTotal(t *testing.T) {
	m := NewMeter(Limits{TexturePixels: 100})
	if err := m.Charge(TexturePixels, 60, "a.blp", "a"); err != nil {
		t.Fatal(err)
	}
	err := m.Charge(TexturePixels, 50, "b.blp", "level 0")
	var be *Error
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want an *Error", err)
	}
	if be.Value != 110 || be.Max != 100 || be.Limit != TexturePixels || be.File != "b.blp" {
		t.Errorf("error %+v", be)
	}
	for _, want := range []string{"b.blp", "level 0", "110", "texture_pixels", "100"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if m.Used(TexturePixels) != 60 {
		t.Errorf("a refused charge was counted: %d", m.Used(TexturePixels))
	}
	if err := m.Charge(TexturePixels, 40, "c", ""); err != nil {
		t.Errorf("what was left was refused: %v", err)
	}
}

func TestChargeConcurrentNeverPasses(t *testing.T) {
	m := NewMeter(Limits{ReadBytes: 1000})
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if m.Charge(ReadBytes, 3, "", "") == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if ok != 333 || m.Used(ReadBytes) != 999 {
		t.Errorf("%d charges of 3 accepted, %d used; want 333 and 999", ok, m.Used(ReadBytes))
	}
}

func TestChargeOnceAndFork(t *testing.T) {
	m := NewMeter(Limits{ReadBytes: 10})
	for range 3 {
		if err := m.ChargeOnce("t.blp", ReadBytes, 6, "t.blp", ""); err != nil {
			t.Fatal(err)
		}
	}
	if m.Used(ReadBytes) != 6 {
		t.Errorf("charged %d, want once 6", m.Used(ReadBytes))
	}
	f := m.Fork()
	if err := f.ChargeOnce("t.blp", ReadBytes, 6, "", ""); err != nil {
		t.Errorf("the fork charged again what its parent had: %v", err)
	}
	if err := f.Charge(ReadBytes, 4, "", ""); err != nil {
		t.Fatal(err)
	}
	if m.Used(ReadBytes) != 6 || f.Used(ReadBytes) != 10 {
		t.Errorf("parent %d, fork %d; want 6 and 10", m.Used(ReadBytes), f.Used(ReadBytes))
	}
	if err := m.ChargeOnce("u", ReadBytes, 5, "", ""); err == nil {
		t.Error("over the limit accepted")
	}
	if err := m.ChargeOnce("u", ReadBytes, 4, "", ""); err != nil {
		t.Errorf("a refused ChargeOnce was remembered: %v", err)
	}
}

func TestNilMeterBoundsEachCharge(t *testing.T) {
	var m *Meter
	if err := m.Charge(ReadBytes, ReadBytes.Default(), "", ""); err != nil {
		t.Error(err)
	}
	if err := m.Charge(ReadBytes, ReadBytes.Default()+1, "", ""); err == nil {
		t.Error("the nil Meter let a charge over the default through")
	}
}

func TestRead(t *testing.T) {
	m := NewMeter(Limits{ReadBytes: 10})
	b, err := m.ReadFile("f", bytes.NewReader([]byte("hello")), 5, nil)
	if err != nil || string(b) != "hello" {
		t.Fatalf("%q, %v", b, err)
	}
	// A file of 8 bytes does not fit in the 5 left: refused before reading.
	r := &countReader{r: bytes.NewReader(make([]byte, 8))}
	if _, err := m.ReadFile("g", r, 8, nil); err == nil || r.n != 0 {
		t.Errorf("err %v, %d bytes read", err, r.n)
	}
	// A file that says 2 bytes and holds 100 is cut off past the limit.
	r = &countReader{r: bytes.NewReader(make([]byte, 100))}
	if _, err := m.ReadFile("h", r, 2, nil); err == nil || r.n > 8 {
		t.Errorf("err %v, %d bytes read", err, r.n)
	}
	// The same name again is not charged again.
	if _, err := m.ReadFile("f", bytes.NewReader([]byte("hello")), 5, nil); err != nil {
		t.Errorf("a file read twice was charged twice: %v", err)
	}
}

type countReader struct {
	r *bytes.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
