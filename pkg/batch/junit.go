package batch

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/mdxrender/mdxrender/internal/clip"
)

// junit mirrors the JUnit XML layout CI systems read (GitLab, Jenkins,
// GitHub test-reporter actions).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Time    string        `xml:"time,attr"`
	Failure *junitProblem `xml:"failure,omitempty"`
	Error   *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnitXML writes the check results as JUnit XML: one test case per
// compared output, and one per model that failed to render (as an error).
func (m *Manifest) JUnitXML() ([]byte, error) {
	s := junitSuite{Name: "mdxrender check"}
	var total float64
	for _, r := range m.Models {
		total += r.Timings.TotalMS
		if r.Status == StatusFailed {
			s.Errors++
			errs := make([]string, len(r.Errors))
			for i, e := range r.Errors {
				errs[i] = junitText(e)
			}
			s.Cases = append(s.Cases, junitCase{Class: junitText(r.Input), Name: "render", Time: secs(r.Timings.TotalMS),
				Error: &junitProblem{Message: junitText(strings.Join(r.Errors, "; ")), Type: "render", Text: strings.Join(errs, "\n")}})
		}
		for _, c := range r.Checks {
			jc := junitCase{Class: junitText(r.Input), Name: junitText(c.Output), Time: secs(r.Timings.CheckMS)}
			if c.Failed() {
				s.Failures++
				jc.Failure = &junitProblem{Message: junitText(c.Message), Type: c.Status,
					Text: fmt.Sprintf("golden %s\nmismatched %d of %d pixels (%.4f%%), max channel difference %d\ndiff %s",
						junitText(c.Golden), c.Mismatched, c.Total, 100*c.Share, c.MaxDiff, junitText(c.Diff))}
			}
			s.Cases = append(s.Cases, jc)
		}
	}
	s.Tests = len(s.Cases)
	s.Time = secs(total)
	doc := junitSuites{Name: "mdxrender", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Suites: []junitSuite{s}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), b...), '\n'), nil
}

func secs(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

// junitText is what the report shows of a name or message from a model
// or an archive: clipped, on one line, control characters escaped
// (encoding/xml would turn them into U+FFFD, hiding what they were).
func junitText(s string) string { return clip.Display(s, junitMax) }

// junitMax is how many bytes of one name or message the report shows.
const junitMax = 1000
