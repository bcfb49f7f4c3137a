// Package inicfg is a target of the search-strategy benchmark
// (bench/strategies): a parser of an INI/TOML-like configuration format
// (sections, dotted keys, quoted strings with escapes, integers with
// signs and bases, booleans, arrays) followed by a schema check of a
// server configuration. Its deep goals need a well-formed file whose
// values pass several range checks together.
package inicfg

type kind int

const (
	kString kind = iota
	kInt
	kBool
	kArray
)

type value struct {
	kind kind
	s    string
	n    int64
	b    bool
	arr  []int64
}

type entry struct {
	section string
	key     string
	val     value
	line    int
}

type parseError struct {
	line int
	msg  string
}

func (e *parseError) Error() string { return "inicfg: line " + itoa(e.line) + ": " + e.msg }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

type parser struct {
	src     string
	pos     int
	line    int
	section string
	entries []entry
	seen    map[string]bool
}

func isSpace(c byte) bool  { return c == ' ' || c == '\t' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isKeyChar(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '-'
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) skipSpace() {
	for !p.eof() && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) fail(msg string) error { return &parseError{p.line, msg} }

// endOfLine accepts spaces, an optional comment and the line's end.
func (p *parser) endOfLine() error {
	p.skipSpace()
	if p.peek() == '#' || p.peek() == ';' {
		for !p.eof() && p.src[p.pos] != '\n' {
			p.pos++
		}
	}
	if p.eof() {
		return nil
	}
	if p.src[p.pos] == '\r' {
		p.pos++
		if p.peek() != '\n' {
			return p.fail("bare carriage return")
		}
	}
	if p.src[p.pos] != '\n' {
		return p.fail("garbage after value")
	}
	p.pos++
	p.line++
	return nil
}

func (p *parser) key() (string, error) {
	start := p.pos
	for !p.eof() && (isKeyChar(p.src[p.pos]) || p.src[p.pos] == '.') {
		if p.src[p.pos] == '.' && (p.pos == start || p.src[p.pos-1] == '.') {
			return "", p.fail("empty key segment")
		}
		p.pos++
	}
	if p.pos == start {
		return "", p.fail("missing key")
	}
	if p.src[p.pos-1] == '.' {
		return "", p.fail("key ends with a dot")
	}
	return p.src[start:p.pos], nil
}

func (p *parser) sectionHeader() error {
	p.pos++ // '['
	p.skipSpace()
	name, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	if p.peek() != ']' {
		return p.fail("unclosed section")
	}
	p.pos++
	if p.seen["["+name+"]"] {
		return p.fail("duplicate section")
	}
	p.seen["["+name+"]"] = true
	p.section = name
	return p.endOfLine()
}

func (p *parser) quoted() (string, error) {
	q := p.src[p.pos]
	p.pos++
	var out []byte
	for {
		if p.eof() || p.src[p.pos] == '\n' {
			return "", p.fail("unterminated string")
		}
		c := p.src[p.pos]
		p.pos++
		if c == q {
			return string(out), nil
		}
		if c != '\\' || q == '\'' {
			out = append(out, c)
			continue
		}
		if p.eof() {
			return "", p.fail("dangling escape")
		}
		e := p.src[p.pos]
		p.pos++
		switch e {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case '\\', '"':
			out = append(out, e)
		case 'x':
			if p.pos+2 > len(p.src) {
				return "", p.fail("short hex escape")
			}
			h, ok1 := hexVal(p.src[p.pos])
			l, ok2 := hexVal(p.src[p.pos+1])
			if !ok1 || !ok2 {
				return "", p.fail("bad hex escape")
			}
			p.pos += 2
			if h == 0 && l == 0 {
				return "", p.fail("NUL in string")
			}
			out = append(out, byte(h<<4|l))
		default:
			return "", p.fail("unknown escape")
		}
	}
}

func hexVal(c byte) (int, bool) {
	switch {
	case isDigit(c):
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// number parses a decimal, 0x hex or 0b binary integer with an optional
// sign and '_' separators between digits.
func (p *parser) number() (int64, error) {
	neg := false
	if c := p.peek(); c == '+' || c == '-' {
		neg = c == '-'
		p.pos++
	}
	base := int64(10)
	if p.peek() == '0' && p.pos+1 < len(p.src) {
		switch p.src[p.pos+1] {
		case 'x':
			base = 16
			p.pos += 2
		case 'b':
			base = 2
			p.pos += 2
		}
	}
	var n int64
	digits := 0
	lastUnderscore := false
	for !p.eof() {
		c := p.src[p.pos]
		if c == '_' {
			if digits == 0 || lastUnderscore {
				return 0, p.fail("misplaced underscore")
			}
			lastUnderscore = true
			p.pos++
			continue
		}
		d, ok := hexVal(c)
		if !ok || int64(d) >= base {
			break
		}
		if n > (1<<40)/base {
			return 0, p.fail("integer too large")
		}
		n = n*base + int64(d)
		digits++
		lastUnderscore = false
		p.pos++
	}
	if digits == 0 {
		return 0, p.fail("no digits")
	}
	if lastUnderscore {
		return 0, p.fail("trailing underscore")
	}
	if base == 10 && digits > 1 && p.src[p.pos-digits] == '0' {
		return 0, p.fail("leading zero")
	}
	if neg {
		n = -n
	}
	return n, nil
}

func (p *parser) array() ([]int64, error) {
	p.pos++ // '['
	var out []int64
	for {
		p.skipSpace()
		if p.peek() == ']' {
			p.pos++
			return out, nil
		}
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if len(out) > 6 {
			return nil, p.fail("array too long")
		}
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
		default:
			return nil, p.fail("expected , or ]")
		}
	}
}

func (p *parser) value() (value, error) {
	switch c := p.peek(); {
	case c == '"' || c == '\'':
		s, err := p.quoted()
		return value{kind: kString, s: s}, err
	case c == '[':
		a, err := p.array()
		return value{kind: kArray, arr: a}, err
	case c == 't' || c == 'f':
		if hasPrefix(p.src[p.pos:], "true") {
			p.pos += 4
			return value{kind: kBool, b: true}, nil
		}
		if hasPrefix(p.src[p.pos:], "false") {
			p.pos += 5
			return value{kind: kBool}, nil
		}
		return value{}, p.fail("bad literal")
	case isDigit(c) || c == '-' || c == '+':
		n, err := p.number()
		return value{kind: kInt, n: n}, err
	}
	return value{}, p.fail("expected a value")
}

func hasPrefix(s, pre string) bool {
	if len(s) < len(pre) {
		return false
	}
	for i := 0; i < len(pre); i++ {
		if s[i] != pre[i] {
			return false
		}
	}
	return true
}

func (p *parser) keyValue() error {
	k, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	if p.peek() != '=' && p.peek() != ':' {
		return p.fail("expected =")
	}
	p.pos++
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return err
	}
	full := p.section + "." + k
	if p.seen[full] {
		return p.fail("duplicate key")
	}
	p.seen[full] = true
	p.entries = append(p.entries, entry{section: p.section, key: k, val: v, line: p.line})
	return p.endOfLine()
}

func parse(src string) ([]entry, error) {
	p := &parser{src: src, line: 1, seen: map[string]bool{}}
	for !p.eof() {
		p.skipSpace()
		switch c := p.peek(); {
		case c == '\n':
			p.pos++
			p.line++
		case c == '#' || c == ';':
			if err := p.endOfLine(); err != nil {
				return nil, err
			}
		case c == '[':
			if err := p.sectionHeader(); err != nil {
				return nil, err
			}
		case isKeyChar(c):
			if err := p.keyValue(); err != nil {
				return nil, err
			}
		default:
			return nil, p.fail("unexpected character")
		}
	}
	return p.entries, nil
}

// server is the configuration the schema builds.
type server struct {
	port     int64
	workers  int64
	tls      bool
	host     string
	ratio    []int64
	mode     string
	logLevel int64
}

func applySchema(es []entry) (*server, error) {
	s := &server{port: 80, workers: 1, logLevel: 2}
	for _, e := range es {
		if e.section != "server" && e.section != "log" && e.section != "" {
			return nil, &parseError{e.line, "unknown section"}
		}
		switch e.section + "." + e.key {
		case "server.port":
			if e.val.kind != kInt || e.val.n < 1 || e.val.n > 65535 {
				return nil, &parseError{e.line, "bad port"}
			}
			s.port = e.val.n
		case "server.workers":
			if e.val.kind != kInt || e.val.n < 1 || e.val.n > 64 {
				return nil, &parseError{e.line, "bad workers"}
			}
			s.workers = e.val.n
		case "server.tls":
			if e.val.kind != kBool {
				return nil, &parseError{e.line, "tls is a bool"}
			}
			s.tls = e.val.b
		case "server.host":
			if e.val.kind != kString || len(e.val.s) == 0 {
				return nil, &parseError{e.line, "bad host"}
			}
			s.host = e.val.s
		case "server.ratio":
			if e.val.kind != kArray {
				return nil, &parseError{e.line, "ratio is an array"}
			}
			s.ratio = e.val.arr
		case "log.level":
			if e.val.kind != kInt || e.val.n < 0 || e.val.n > 5 {
				return nil, &parseError{e.line, "bad level"}
			}
			s.logLevel = e.val.n
		case ".mode":
			if e.val.kind != kString {
				return nil, &parseError{e.line, "mode is a string"}
			}
			s.mode = e.val.s
		default:
			return nil, &parseError{e.line, "unknown key"}
		}
	}
	return s, nil
}

// check relates the values to each other.
func check(s *server) int {
	score := 0
	if s.tls && s.port == 80 {
		return -1
	}
	if s.tls && s.port == 443 {
		score++
	}
	if len(s.ratio) > 0 {
		var sum int64
		for _, r := range s.ratio {
			if r < 0 {
				return -2
			}
			sum += r
		}
		if sum != 100 {
			return -3
		}
		score++
		if len(s.ratio) == 3 && s.ratio[0] > s.ratio[1] && s.ratio[1] > s.ratio[2] {
			score++
			if s.workers > 0 && s.ratio[2]%s.workers == 0 && s.logLevel == 5 {
				// planted: descending ratios misassigned
				panic("inicfg: descending ratios misassigned")
			}
		}
	}
	if s.mode == "debug" && s.logLevel < 4 {
		return -4
	}
	if s.host != "" && s.host[0] == '\t' {
		// planted: integer divide by zero
		var workersPerPort = s.port / (s.workers - 2)
		_ = workersPerPort
		score++
	}
	if s.mode == "replica" {
		score += 2
		if s.workers == 3 && s.port > 8000 {
			score++
		}
	}
	return score
}

// Load parses src, applies the schema and scores the configuration: a
// negative number for a rejected file, otherwise how many advanced
// options it sets consistently.
func Load(src string) int {
	es, err := parse(src)
	if err != nil {
		return -10
	}
	s, err := applySchema(es)
	if err != nil {
		return -11
	}
	return check(s)
}
