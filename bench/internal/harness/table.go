package harness

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// SelectNames parses a comma-separated selection from known. The result
// is in known's order, whatever the order of list, each name once; an
// empty list selects def. An unknown name, or a list that selects nothing,
// is an error.
func SelectNames(list string, known, def []string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return slices.Clone(def), nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("unknown name %q (known: %s)", n, strings.Join(known, ", "))
		}
		want[n] = true
	}
	var out []string
	for _, k := range known {
		if want[k] {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q selects nothing", list)
	}
	return out, nil
}

var numberRE = regexp.MustCompile(`[0-9]+`)

// DistinctMessages drops from msgs, in order, every message that differs
// from an earlier one only in its numbers ("index out of range [6] with
// length 6" and "[4] with length 4" are one failure), as gocolic
// deduplicates its findings.
func DistinctMessages(msgs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		key := numberRE.ReplaceAllString(strings.TrimSpace(m), "N")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, m)
	}
	return out
}

// Table is a Markdown table.
type Table struct {
	Head  []string
	Right []bool // right-aligned columns; missing entries are left-aligned
	Rows  [][]string
}

// Add appends a row; missing cells are empty, extra cells an error at
// Markdown time.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Markdown formats the table, one line per row. Cells are written as
// they are: a '|' in a cell must come escaped.
func (t *Table) Markdown() (string, error) {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for i := range t.Head {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	line(t.Head)
	b.WriteString("|")
	for i := range t.Head {
		if i < len(t.Right) && t.Right[i] {
			b.WriteString("--:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for k, r := range t.Rows {
		if len(r) > len(t.Head) {
			return "", fmt.Errorf("row %d has %d cells for %d columns", k, len(r), len(t.Head))
		}
		line(r)
	}
	return b.String(), nil
}

// Cell escapes s for a table cell: a '|' is written \| and a line break
// as a space.
func Cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
}

// Rate formats an execution rate rounded to a whole number, with commas
// between groups of three digits: 12,345. A rate that is not positive is
// "0".
func Rate(r float64) string {
	if r <= 0 {
		return "0"
	}
	s := strconv.FormatInt(int64(r+0.5), 10)
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

// Publish prints the Markdown md of a benchmark, with the workspace
// directory dir written as $TMP so that the output names no machine, and
// writes it to the file out too when out is not empty.
func Publish(md, dir, out string) error {
	md = strings.ReplaceAll(md, dir, "$TMP")
	fmt.Print(md)
	if out != "" {
		if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
			return fmt.Errorf("writing -out: %w", err)
		}
	}
	return nil
}
