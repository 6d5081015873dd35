package batch

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
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
	var b bytes.Buffer
	err := writeJUnit(m, memoryModels(m.Models), &b)
	return b.Bytes(), err
}

// junitCases calls fn with the test cases of one model.
func junitCases(r *ModelResult, fn func(c *junitCase) error) error {
	if r.Status == StatusFailed {
		errs := make([]string, len(r.Errors))
		for i, e := range r.Errors {
			errs[i] = junitText(e)
		}
		c := junitCase{Class: junitText(r.Input), Name: "render", Time: secs(r.Timings.TotalMS),
			Error: &junitProblem{Message: junitText(strings.Join(r.Errors, "; ")), Type: "render", Text: strings.Join(errs, "\n")}}
		if err := fn(&c); err != nil {
			return err
		}
	}
	for _, c := range r.Checks {
		jc := junitCase{Class: junitText(r.Input), Name: junitText(c.Output), Time: secs(r.Timings.CheckMS)}
		if c.Failed() {
			jc.Failure = &junitProblem{Message: junitText(c.Message), Type: c.Status,
				Text: fmt.Sprintf("golden %s\nmismatched %d of %d pixels (%.4f%%), max channel difference %d\ndiff %s",
					junitText(c.Golden), c.Mismatched, c.Total, 100*c.Share, c.MaxDiff, junitText(c.Diff))}
		}
		if err := fn(&jc); err != nil {
			return err
		}
	}
	return nil
}

// writeJUnit writes the JUnit XML of the models, in two passes: the
// counts the header gives, then the cases, one model at a time.
func writeJUnit(_ *Manifest, models modelSource, w io.Writer) error {
	s := junitSuite{Name: "mdxrender check"}
	var total float64
	err := models.each(func(r *ModelResult) error {
		total += r.Timings.TotalMS
		return junitCases(r, func(c *junitCase) error {
			s.Tests++
			if c.Error != nil {
				s.Errors++
			}
			if c.Failure != nil {
				s.Failures++
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	s.Time = secs(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	attr := func(n, v string) xml.Attr { return xml.Attr{Name: xml.Name{Local: n}, Value: v} }
	itoa := strconv.Itoa
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{attr("name", "mdxrender"),
		attr("tests", itoa(s.Tests)), attr("failures", itoa(s.Failures)), attr("errors", itoa(s.Errors))}}
	suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{attr("name", s.Name),
		attr("tests", itoa(s.Tests)), attr("failures", itoa(s.Failures)), attr("errors", itoa(s.Errors)), attr("time", s.Time)}}
	if err := enc.EncodeToken(suites); err != nil {
		return err
	}
	if err := enc.EncodeToken(suite); err != nil {
		return err
	}
	err = models.each(func(r *ModelResult) error {
		return junitCases(r, func(c *junitCase) error {
			return enc.EncodeElement(c, xml.StartElement{Name: xml.Name{Local: "testcase"}})
		})
	})
	if err != nil {
		return err
	}
	if err := enc.EncodeToken(suite.End()); err != nil {
		return err
	}
	if err := enc.EncodeToken(suites.End()); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

func secs(ms float64) string { return fmt.Sprintf("%.3f", ms/1000) }

// junitText is what the report shows of a name or message from a model
// or an archive: clipped, on one line, control characters escaped
// (encoding/xml would turn them into U+FFFD, hiding what they were).
func junitText(s string) string { return clip.Display(s, junitMax) }

// junitMax is how many bytes of one name or message the report shows.
const junitMax = 1000
