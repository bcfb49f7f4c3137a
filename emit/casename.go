// This file names the subtests: a case after the condition it is the
// first to cover and the error it pins, a crash after how it fails, so
// that a failing subtest says what it exercises.

package emit

import (
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cond is a branch outcome: where the condition is, its source and the
// side taken.
type Cond struct {
	// Pos is the condition's place, file:line.
	Pos string
	// Text is the condition's source, e.g. `c == '='`.
	Text string
	// Taken is the outcome: true or false.
	Taken bool
	// Std marks a condition of a standard package instrumented with the
	// target: it names a case only when nothing of the user's code does.
	Std bool
}

// String returns the outcome as a case's comment lists it:
// `p.go:31 c == '=' true`.
func (c Cond) String() string {
	return c.Pos + " " + c.Text + " " + strconv.FormatBool(c.Taken)
}

// maxResultWords bounds the words a name takes from an error message or
// a crash message.
const maxResultWords = 4

// opWords names the operators of a condition.
var opWords = map[token.Token]string{
	token.EQL: "eq", token.NEQ: "ne", token.LSS: "lt", token.LEQ: "le", token.GTR: "gt", token.GEQ: "ge",
	token.LAND: "and", token.LOR: "or", token.NOT: "not",
	token.ADD: "plus", token.SUB: "minus", token.MUL: "times", token.QUO: "div", token.REM: "mod",
	token.AND: "and", token.OR: "or", token.XOR: "xor", token.SHL: "shl", token.SHR: "shr", token.AND_NOT: "andnot",
}

// charWords names the characters that are neither letters nor digits
// where a condition compares with them.
var charWords = map[rune]string{
	' ': "space", '\t': "tab", '\n': "newline", '\r': "cr", 0: "nul",
	'=': "equals", '#': "hash", '-': "minus", '+': "plus", '.': "dot", ',': "comma",
	':': "colon", ';': "semicolon", '/': "slash", '\\': "backslash", '"': "quote",
	'\'': "apostrophe", '(': "lparen", ')': "rparen", '[': "lbracket", ']': "rbracket",
	'{': "lbrace", '}': "rbrace", '<': "lt", '>': "gt", '*': "star", '_': "underscore",
	'!': "bang", '?': "question", '@': "at", '$': "dollar", '%': "percent", '&': "amp",
	'|': "pipe", '^': "caret", '~': "tilde", '`': "backquote",
}

// charWord names one character.
func charWord(r rune) string {
	if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return string(r)
	}
	if w, ok := charWords[r]; ok {
		return w
	}
	return "x" + strconv.FormatInt(int64(r), 16)
}

// condWords spells a condition's source in words: `c == '='` is c eq
// equals, `len(line) == 0` len line eq 0, `"on"` on.
func condWords(text string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(text)), []byte(text), nil, 0)
	var words []string
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return words
		case tok == token.IDENT:
			words = append(words, lit)
		case tok == token.INT || tok == token.FLOAT:
			words = append(words, plainWords(lit)...)
		case tok == token.CHAR:
			if r, _, _, err := strconv.UnquoteChar(strings.Trim(lit, "'"), '\''); err == nil {
				words = append(words, charWord(r))
			}
		case tok == token.STRING:
			v, err := strconv.Unquote(lit)
			switch {
			case err != nil:
			case v == "":
				words = append(words, "empty")
			case len(plainWords(v)) > 0:
				words = append(words, plainWords(v)...)
			default:
				for _, r := range v {
					words = append(words, charWord(r))
				}
			}
		default:
			if w, ok := opWords[tok]; ok {
				words = append(words, w)
			}
		}
	}
}

// plainWords returns the runs of ASCII letters and digits of s.
func plainWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r >= utf8.RuneSelf || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

// messageWords returns the first words of a message, for a name: without
// the prefixes that name a package ("keywords: ") or say "runtime error:",
// without what it quotes or puts in brackets (a value of this input, not
// the behaviour), and without the words in skip.
func messageWords(msg string, skip map[string]bool) []string {
	for {
		head, rest, ok := strings.Cut(msg, ": ")
		if !ok || len(plainWords(rest)) == 0 ||
			strings.ContainsAny(strings.TrimSpace(head), " \t") && head != "runtime error" && head != "fatal error" {
			break
		}
		msg = rest
	}
	var b strings.Builder
	var closing rune // the delimiter that ends the quoted part being dropped
	for _, r := range msg {
		switch {
		case closing != 0:
			if r == closing {
				closing = 0
			}
		case r == '\'' || r == '"' || r == '`':
			closing = r
		case r == '[':
			closing = ']'
		default:
			b.WriteRune(r)
		}
	}
	var words []string
	for _, w := range plainWords(strings.ToLower(b.String())) {
		if !skip[w] && len(words) < maxResultWords {
			words = append(words, w)
		}
	}
	return words
}

// caseName names a case after the condition it covers first, the first
// true one if there is one (a false outcome is often only the way past
// a check), and the error message it pins, if not nil: `c_eq_equals`,
// `port_bad_digit`. A case that covers nothing of the user's code first
// is named by what it returns, and only failing that by a condition of
// the standard library it covers first.
func caseName(c Case, results []result) string {
	var own, std []Cond
	for _, o := range c.Covers {
		if o.Std {
			std = append(std, o)
		} else {
			own = append(own, o)
		}
	}
	words := coverWords(own)
	seen := map[string]bool{}
	for _, w := range words {
		seen[strings.ToLower(w)] = true
	}
	returned := ""
	for j, r := range results {
		if !r.pinned || j >= len(c.Results) {
			continue
		}
		lit := c.Results[j]
		if r.cmp == cmpError {
			if msg, err := strconv.Unquote(lit); err == nil && msg != "" {
				if ws := messageWords(msg, seen); len(ws) > 0 {
					words = append(words, ws...)
				} else {
					words = append(words, "error")
				}
			}
			continue
		}
		if returned == "" {
			returned = lit
		}
	}
	if len(words) == 0 && returned != "" {
		// A conversion says its value: []byte("ab") returns ab.
		if i, j := strings.IndexByte(returned, '('), strings.LastIndexByte(returned, ')'); i >= 0 && j > i {
			returned = returned[i+1 : j]
		}
		words = append([]string{"returns"}, plainWords(returned)...)
	}
	if len(words) == 0 {
		words = coverWords(std)
	}
	return shortName(words, "call")
}

// coverWords spells the outcome of covers a case is named after: the
// first true one, else the first; none for no covers.
func coverWords(covers []Cond) []string {
	if len(covers) == 0 {
		return nil
	}
	pick := covers[0]
	for _, o := range covers {
		if o.Taken {
			pick = o
			break
		}
	}
	words := condWords(pick.Text)
	if !pick.Taken {
		words = append([]string{"not"}, words...)
	}
	return words
}

// kindVerbs says how each kind of crash fails, for its name.
var kindVerbs = map[string]string{
	"panic": "panics", "fail": "fails", "exit": "exits", "fatal": "dies",
	"timeout": "hangs", "memory": "exhausts_memory",
}

// crashName names a crash after how it fails and the first words of its
// message, `panics_index_out_of_range`, in [A-Za-z0-9_] only, so that `go
// test` prints it unchanged and it can be used verbatim in a -test.run
// pattern.
func crashName(kind, msg string) string {
	verb, ok := kindVerbs[kind]
	if !ok {
		verb = strings.Join(plainWords(kind), "_")
	}
	skip := map[string]bool{kind: true}
	words := append(plainWords(verb), messageWords(msg, skip)...)
	if len(words) == 0 {
		return "crash"
	}
	return shortName(words, "crash")
}

// withPlace appends "_in_<where>" to the crash name, cutting the name's
// last words to keep within maxNameLen; the place is kept whole.
func withPlace(name, where string) string {
	w := plainWords(where)
	if len(w) == 0 {
		return name
	}
	in := "_in_" + strings.Join(w, "_")
	for len(name)+len(in) > maxNameLen {
		i := strings.LastIndexByte(name, '_')
		if i <= 0 {
			break
		}
		name = name[:i]
	}
	return name + in
}

// shortName joins words with underscores into a name of at most
// maxNameLen bytes, cut between words where it can be; empty is the name
// when there are no words.
func shortName(words []string, empty string) string {
	name := strings.Join(words, "_")
	if name == "" {
		return empty
	}
	if len(name) > maxNameLen {
		cut := name[:maxNameLen]
		if name[maxNameLen] != '_' {
			if i := strings.LastIndexByte(cut, '_'); i > maxNameLen/2 {
				cut = cut[:i]
			}
		}
		name = strings.TrimRight(cut, "_")
	}
	if c := name[0]; c >= '0' && c <= '9' {
		name = "_" + name // a subtest name may start with a digit, an identifier not
	}
	if token.IsKeyword(name) {
		name += "_" // a case value "if" or "func"
	}
	return name
}
