// Package smtp is a target of the search-strategy benchmark
// (bench/strategies): the server side of an SMTP-like session over a byte
// stream. Commands arrive as CRLF- or LF-terminated lines; the session
// moves through greeting, authentication, envelope and data states, and
// each command is checked against the state, its argument syntax (paths in
// angle brackets, ESMTP parameters, AUTH with a base64 token) and limits.
// Its deep goals need a whole session of several valid commands in order.
package smtp

//strategies:flags -maxlen 96

type state int

const (
	stConnected state = iota
	stGreeted
	stMail
	stRcpt
	stData
	stQuit
)

const (
	maxRcpts   = 3
	maxLine    = 64
	maxMessage = 128
)

type session struct {
	st        state
	esmtp     bool
	authed    bool
	user      string
	from      string
	rcpts     []string
	size      int
	body8bit  bool
	data      []byte
	delivered int
	replies   []int
	errors    int
	resets    int
}

func (s *session) reply(code int) {
	s.replies = append(s.replies, code)
	if code >= 500 {
		s.errors++
	}
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// verb splits a line into its upper-cased command word (every command
// has four letters) and the argument after one space; ok is false for a
// line of another shape.
func verb(line []byte) (v string, arg []byte, ok bool) {
	if len(line) < 4 || len(line) > 4 && line[4] != ' ' {
		return "", nil, false
	}
	w := make([]byte, 4)
	for j := 0; j < 4; j++ {
		w[j] = upper(line[j])
	}
	if len(line) > 5 {
		arg = line[5:]
	}
	return string(w), arg, true
}

func hasPrefixFold(b []byte, pre string) bool {
	if len(b) < len(pre) {
		return false
	}
	for i := 0; i < len(pre); i++ {
		if upper(b[i]) != pre[i] {
			return false
		}
	}
	return true
}

func isAtext(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '-' || c == '_' || c == '+'
}

// path parses "<local@domain>" (or "<>" when allowEmpty) and returns the
// address and the rest of the argument.
func path(arg []byte, allowEmpty bool) (string, []byte, bool) {
	if len(arg) < 2 || arg[0] != '<' {
		return "", nil, false
	}
	i := 1
	at := -1
	for i < len(arg) && arg[i] != '>' {
		c := arg[i]
		switch {
		case c == '@':
			if at >= 0 || i == 1 {
				return "", nil, false
			}
			at = i
		case !isAtext(c):
			return "", nil, false
		}
		i++
	}
	if i == len(arg) {
		return "", nil, false
	}
	addr := string(arg[1:i])
	if addr == "" {
		if !allowEmpty {
			return "", nil, false
		}
		return "", arg[i+1:], true
	}
	if at < 0 || at == i-1 {
		return "", nil, false
	}
	dot := false
	for j := at + 1; j < i; j++ {
		if arg[j] == '.' {
			if j == at+1 || j == i-1 {
				return "", nil, false
			}
			dot = true
		}
	}
	if !dot {
		return "", nil, false
	}
	return addr, arg[i+1:], true
}

func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// params reads ESMTP parameters of MAIL FROM: SIZE=n and BODY=8BITMIME.
func (s *session) params(rest []byte) bool {
	for len(rest) > 0 {
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		j := 0
		for j < len(rest) && rest[j] != ' ' {
			j++
		}
		p := rest[:j]
		rest = rest[j:]
		switch {
		case len(p) == 0:
		case hasPrefixFold(p, "SIZE="):
			n, ok := atoi(p[5:])
			if !ok || n > maxMessage {
				return false
			}
			s.size = n
		case hasPrefixFold(p, "BODY="):
			v := p[5:]
			switch {
			case hasPrefixFold(v, "8BITMIME") && len(v) == 8:
				s.body8bit = true
			case hasPrefixFold(v, "7BIT") && len(v) == 4:
				s.body8bit = false
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

func b64(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// decodeBase64 decodes a padded base64 token.
func decodeBase64(t []byte) ([]byte, bool) {
	if len(t) == 0 || len(t)%4 != 0 {
		return nil, false
	}
	var out []byte
	for i := 0; i < len(t); i += 4 {
		var v [4]int
		pad := 0
		for k := 0; k < 4; k++ {
			c := t[i+k]
			if c == '=' {
				if i+4 != len(t) || k < 2 {
					return nil, false
				}
				pad++
				continue
			}
			if pad > 0 {
				return nil, false
			}
			v[k] = b64(c)
			if v[k] < 0 {
				return nil, false
			}
		}
		out = append(out, byte(v[0]<<2|v[1]>>4))
		if pad < 2 {
			out = append(out, byte(v[1]<<4|v[2]>>2))
		}
		if pad < 1 {
			out = append(out, byte(v[2]<<6|v[3]))
		}
	}
	return out, true
}

// auth handles AUTH PLAIN <token>: the token is "\0user\0password".
func (s *session) auth(arg []byte) {
	if !s.esmtp {
		s.reply(503)
		return
	}
	if s.authed {
		s.reply(503)
		return
	}
	if !hasPrefixFold(arg, "PLAIN ") {
		s.reply(504)
		return
	}
	tok, ok := decodeBase64(arg[6:])
	if !ok {
		s.reply(501)
		return
	}
	if len(tok) < 3 || tok[0] != 0 {
		s.reply(535)
		return
	}
	sep := -1
	for i := 1; i < len(tok); i++ {
		if tok[i] == 0 {
			sep = i
			break
		}
	}
	if sep < 2 || sep == len(tok)-1 {
		s.reply(535)
		return
	}
	user, pass := string(tok[1:sep]), tok[sep+1:]
	sum := 0
	for _, c := range pass {
		sum += int(c)
	}
	if sum%7 != 3 {
		s.reply(535)
		return
	}
	s.authed = true
	s.user = user
	s.reply(235)
}

func (s *session) command(line []byte) {
	if len(line) > maxLine {
		s.reply(500)
		return
	}
	v, arg, ok := verb(line)
	if !ok {
		s.reply(500)
		return
	}
	switch v {
	case "HELO", "EHLO":
		if len(arg) == 0 {
			s.reply(501)
			return
		}
		s.esmtp = v == "EHLO"
		s.st = stGreeted
		s.from, s.rcpts = "", nil
		s.reply(250)
	case "AUTH":
		if s.st != stGreeted {
			s.reply(503)
			return
		}
		s.auth(arg)
	case "MAIL":
		if s.st != stGreeted {
			s.reply(503)
			return
		}
		if !hasPrefixFold(arg, "FROM:") {
			s.reply(501)
			return
		}
		from, rest, ok := path(arg[5:], true)
		if !ok {
			s.reply(553)
			return
		}
		if len(rest) > 0 && !s.esmtp {
			s.reply(555)
			return
		}
		if !s.params(rest) {
			s.reply(555)
			return
		}
		s.from = from
		s.st = stMail
		s.reply(250)
	case "RCPT":
		if s.st != stMail && s.st != stRcpt {
			s.reply(503)
			return
		}
		if !hasPrefixFold(arg, "TO:") {
			s.reply(501)
			return
		}
		to, rest, ok := path(arg[3:], false)
		if !ok || len(rest) > 0 {
			s.reply(553)
			return
		}
		if len(s.rcpts) >= maxRcpts {
			s.reply(452)
			return
		}
		if s.from == "" && !s.authed {
			// Bounces go to local users only.
			s.reply(550)
			return
		}
		s.rcpts = append(s.rcpts, to)
		s.st = stRcpt
		s.reply(250)
	case "DATA":
		if s.st != stRcpt {
			s.reply(503)
			return
		}
		s.st = stData
		s.data = s.data[:0]
		s.reply(354)
	case "RSET":
		s.resets++
		if s.st > stGreeted {
			s.st = stGreeted
		}
		s.from, s.rcpts = "", nil
		s.reply(250)
	case "NOOP":
		s.reply(250)
	case "QUIT":
		s.st = stQuit
		s.reply(221)
	default:
		s.reply(500)
	}
}

// dataLine handles one line of the message body.
func (s *session) dataLine(line []byte) {
	if len(line) == 1 && line[0] == '.' {
		s.finish()
		return
	}
	if len(line) > 0 && line[0] == '.' {
		line = line[1:] // dot stuffing
	}
	for _, c := range line {
		if c >= 0x80 && !s.body8bit {
			s.reply(554)
			s.st = stGreeted
			return
		}
	}
	s.data = append(s.data, line...)
	s.data = append(s.data, '\n')
	if len(s.data) > maxMessage || (s.size > 0 && len(s.data) > s.size) {
		s.reply(552)
		s.st = stGreeted
	}
}

// finish delivers the message: it checks the header block.
func (s *session) finish() {
	s.st = stGreeted
	hasSubject := false
	i := 0
	for i < len(s.data) && s.data[i] != '\n' {
		line := s.data[i:]
		end := 0
		for end < len(line) && line[end] != '\n' {
			end++
		}
		if hasPrefixFold(line[:end], "SUBJECT:") {
			hasSubject = true
			if end > 8 && line[8] == '!' && s.authed && len(s.rcpts) == 2 {
				// planted: urgent mail to two recipients
				panic("smtp: urgent mail to two recipients")
			}
		}
		i += end + 1
	}
	if !hasSubject && s.esmtp {
		s.reply(554)
		return
	}
	s.delivered += len(s.rcpts)
	if s.delivered > maxRcpts && s.resets == 0 {
		// The counter wraps into the recipient table.
		// planted: index out of range
		_ = s.rcpts[s.delivered]
	}
	s.from, s.rcpts = "", nil
	s.reply(250)
}

// Serve runs a session on the client's input and returns the number of
// messages delivered times ten plus the number of protocol errors.
func Serve(input []byte) int {
	s := &session{}
	start := 0
	for i := 0; i < len(input) && s.st != stQuit; i++ {
		if input[i] != '\n' {
			continue
		}
		line := input[start:i]
		start = i + 1
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if s.st == stData {
			s.dataLine(line)
		} else {
			s.command(line)
		}
		if s.errors > 3 {
			s.reply(421)
			break
		}
	}
	return s.delivered*10 + s.errors
}
