package budget

import (
	"sync"
	"sync/atomic"
)

// A Meter adds up what one model costs against its Limits: the bytes it
// reads, the texture pixels it decodes and its simulation work, over every
// file it reads and every picture drawn of it. Charges that would pass a
// limit are refused with an *Error and not counted, so what was charged
// before stays usable. A Meter is safe for concurrent use; the nil *Meter
// charges against the default Limits without remembering anything, which
// keeps every single cost bounded but not their sum: a program drawing
// files from strangers gives every model a Meter of its own.
type Meter struct {
	lim  Limits
	used [numKinds]atomic.Int64

	mu   sync.Mutex
	once map[any]struct{}
}

// NewMeter returns a Meter with nothing spent, within l.
func NewMeter(l Limits) *Meter { return &Meter{lim: l.WithDefaults()} }

// Limits returns the limits the Meter charges against, defaults filled in.
func (m *Meter) Limits() Limits {
	if m == nil {
		return DefaultLimits()
	}
	return m.lim
}

// Used returns what has been charged to limit k.
func (m *Meter) Used(k Kind) int64 {
	if m == nil {
		return 0
	}
	return m.used[k].Load()
}

// Left returns what limit k still allows.
func (m *Meter) Left(k Kind) int64 { return m.Limits().Get(k) - m.Used(k) }

// Charge adds n to limit k, or refuses it with an *Error naming file and
// what when the total would pass the limit (n is then not counted).
func (m *Meter) Charge(k Kind, n int64, file, what string) error {
	if n <= 0 {
		return nil
	}
	if m == nil {
		return DefaultLimits().Check(k, n, file, what)
	}
	max := m.lim.Get(k)
	for {
		old := m.used[k].Load()
		if n > max-old {
			return &Error{File: file, Limit: k, Max: max, Value: old + n, Used: old, What: what}
		}
		if m.used[k].CompareAndSwap(old, old+n) {
			return nil
		}
	}
}

// ChargeOnce is Charge, but only the first time it is called with key
// (any comparable value, such as a file's identity): a model that uses one
// texture in many layers, or draws it in many pictures, pays for it once.
// A refused charge is not remembered, so asking again is refused again.
func (m *Meter) ChargeOnce(key any, k Kind, n int64, file, what string) error {
	if m == nil {
		return m.Charge(k, n, file, what)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.once[key]; ok {
		return nil
	}
	if err := m.Charge(k, n, file, what); err != nil {
		return err
	}
	if m.once == nil {
		m.once = map[any]struct{}{}
	}
	m.once[key] = struct{}{}
	return nil
}

// Fork returns a Meter within the same Limits that starts with what m has
// spent so far and goes on on its own: each picture call on an opened
// model forks the model's Meter, so the file's cost counts towards every
// picture and one picture's cost does not count towards the next.
func (m *Meter) Fork() *Meter {
	if m == nil {
		return NewMeter(Limits{})
	}
	f := &Meter{lim: m.lim}
	for k := range m.used {
		f.used[k].Store(m.used[k].Load())
	}
	m.mu.Lock()
	if len(m.once) > 0 {
		f.once = make(map[any]struct{}, len(m.once))
		for k := range m.once {
			f.once[k] = struct{}{}
		}
	}
	m.mu.Unlock()
	return f
}
