package e2e

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium returns the headless browser to render reports with. Without
// one the test is skipped, unless GOCOLIC_BROWSER_TEST=1 asks for it.
func chromium(t *testing.T) string {
	t.Helper()
	if st, err := os.Stat("/usr/bin/chromium"); err == nil && !st.IsDir() {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("GOCOLIC_BROWSER_TEST") == "1" {
		t.Fatal("GOCOLIC_BROWSER_TEST=1 but chromium is not installed (apt-get install chromium)")
	}
	t.Skip("chromium is not installed; set GOCOLIC_BROWSER_TEST=1 to make this a failure")
	return ""
}

// browse runs headless chromium on a file with the extra arguments and
// returns its standard output.
func browse(t *testing.T, browser, file string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	all := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(),
	}, args...)
	all = append(all, "file://"+file)
	cmd := exec.CommandContext(ctx, browser, all...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Dir = t.TempDir()
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

// TestReportBrowser explores an example with two strategies into two run
// directories, writes their report, and checks what a browser makes of
// it: the plot with one curve per run and its legend, the finding, the
// annotated source, and a screenshot that shows something.
func TestReportBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	browser := chromium(t)
	dir := copyExamples(t)
	runs := t.TempDir()
	// cover finds the planted bug and stops there; dfs stays stuck in the
	// first keyword for its short budget. The runs differ in -maxbugs, so
	// their labels name it beside the run directory.
	for _, r := range []struct{ strategy, budget, maxbugs string }{{"cover", "90s", "1"}, {"dfs", "2s", "0"}} {
		res := run(t, dir, 3*time.Minute, gocolic, "test", "-budget", r.budget, "-maxbugs", r.maxbugs,
			"-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s", "-strategy", r.strategy,
			"-rundir", filepath.Join(runs, r.strategy), "./keywords", "Setting")
		if res.code != 0 {
			t.Fatalf("gocolic test -strategy %s exited %d:\n%s", r.strategy, res.code, res.stderr)
		}
	}
	page := filepath.Join(t.TempDir(), "report.html")
	res := run(t, dir, 2*time.Minute, gocolic, "report", "-o", page, filepath.Join(runs, "cover"), filepath.Join(runs, "dfs"))
	if res.code != 0 || !strings.Contains(res.stderr, "wrote "+page) {
		t.Fatalf("gocolic report exited %d:\n%s", res.code, res.stderr)
	}

	dom := browse(t, browser, page, "--dump-dom")
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(dom, -1)) }
	checks := []struct {
		what     string
		re       string
		min, max int
	}{
		{"the plot", `<svg id="coverage-plot"`, 1, 1},
		{"the cover curve", `<polyline class="curve" data-run="cover \(maxbugs 1\)" data-index="0" stroke="[^"]+" points="[0-9.]+,[0-9.]+ [^"]+"`, 1, 1},
		{"the dfs curve", `<polyline class="curve" data-run="dfs \(maxbugs 0\)" data-index="1" stroke="[^"]+" points="[0-9.]+,[0-9.]+ [^"]+"`, 1, 1},
		{"curves", `class="curve( empty)?"`, 2, 2},
		{"the legend", `<g id="legend">`, 1, 1},
		{"legend entries", `<g class="legend-item" data-run="(cover \(maxbugs 1\)|dfs \(maxbugs 0\))">`, 2, 2},
		{"the findings", `<section id="findings">`, 1, 1},
		{"the planted bug", `<tr class="finding">(.|\n)*?index out of range`, 1, 1},
		{"the source", `<section id="source">`, 1, 1},
		{"sites with both outcomes", `<span class="site both" title="[^"]+">`, 10, 1000},
		{"every site", `<span class="site (both|true|false|none)" title="[^"]+">`, 30, 1000},
		{"statement shading", `<tr class="(hit|miss)"><td class="ln">`, 10, 10000},
		{"the go tool cover pages", `<a href="cover-[12]\.html">`, 2, 2},
	}
	for _, c := range checks {
		if n := count(c.re); n < c.min || n > c.max {
			t.Errorf("%s: %d matches of %s, want %d to %d", c.what, n, c.re, c.min, c.max)
		}
	}
	for _, f := range []string{"cover-1.html", "cover-2.html"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(page), f)); err != nil {
			t.Errorf("go tool cover page: %v", err)
		}
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}

	shot := filepath.Join(t.TempDir(), "report.png")
	browse(t, browser, page, "--screenshot="+shot, "--window-size=1280,2000", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v, want 1280×2000", b)
	}
	colours := map[[3]uint32]int{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 2 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}]++
		}
	}
	if len(colours) < 50 {
		t.Errorf("screenshot has %d colours: nothing rendered", len(colours))
	}
	// The first two curve colours are on the page.
	for _, want := range [][3]uint32{{0x00, 0x72, 0xB2}, {0xD5, 0x5E, 0x00}} {
		if near(img, want) < 40 {
			t.Errorf("screenshot lacks the curve colour %02x", want)
		}
	}
}

// near counts the pixels within a small distance of a colour.
func near(img image.Image, c [3]uint32) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			d := diff(r>>8, c[0]) + diff(g>>8, c[1]) + diff(bl>>8, c[2])
			if d < 24 {
				n++
			}
		}
	}
	return n
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
