package batch

import "context"

// runAll runs r and reads the models of the manifest it wrote into the
// returned Manifest's Models, as the tests look at them.
func runAll(r *Runner, ctx context.Context) (*Manifest, error) {
	m, err := r.Run(ctx)
	if m == nil {
		return m, err
	}
	if e := EachModel(r.Options.ManifestPath(m), func(res *ModelResult) error {
		m.Models = append(m.Models, *res)
		return nil
	}); e != nil && err == nil {
		err = e
	}
	return m, err
}
