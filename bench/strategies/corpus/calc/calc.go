// Package calc is a target of the search-strategy benchmark
// (bench/strategies): a tokenizer, a precedence-climbing parser and an
// evaluator of integer expressions with variables (let x = e; ...), the
// ternary operator, comparisons, bit operations and a few built-in
// functions. Its deep goals need expressions that parse and evaluate to
// particular values through several statements.
package calc

type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tOp
	tLParen
	tRParen
	tComma
	tSemi
	tQuestion
	tColon
	tAssign
)

type token struct {
	kind tokKind
	num  int64
	text string
	pos  int
}

type calcError struct {
	pos int
	msg string
}

func (e *calcError) Error() string { return "calc: " + e.msg }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdent(c byte) bool { return c >= 'a' && c <= 'z' || c == '_' }

// lex splits src into tokens; two-character operators are recognised
// before one-character ones.
func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case isDigit(c):
			start := i
			var n int64
			if c == '0' && i+1 < len(src) && src[i+1] == 'x' {
				i += 2
				digits := 0
				for i < len(src) {
					d := src[i]
					var v int64
					switch {
					case isDigit(d):
						v = int64(d - '0')
					case d >= 'a' && d <= 'f':
						v = int64(d-'a') + 10
					default:
						v = -1
					}
					if v < 0 {
						break
					}
					n = n*16 + v
					digits++
					i++
					if digits > 8 {
						return nil, &calcError{start, "hex literal too long"}
					}
				}
				if digits == 0 {
					return nil, &calcError{start, "empty hex literal"}
				}
			} else {
				for i < len(src) && isDigit(src[i]) {
					n = n*10 + int64(src[i]-'0')
					if n > 1<<31 {
						return nil, &calcError{start, "literal too large"}
					}
					i++
				}
			}
			toks = append(toks, token{kind: tNum, num: n, pos: start})
		case isIdent(c):
			start := i
			for i < len(src) && (isIdent(src[i]) || isDigit(src[i])) {
				i++
			}
			if i-start > 8 {
				return nil, &calcError{start, "identifier too long"}
			}
			toks = append(toks, token{kind: tIdent, text: src[start:i], pos: start})
		case c == '(':
			toks = append(toks, token{kind: tLParen, pos: i})
			i++
		case c == ')':
			toks = append(toks, token{kind: tRParen, pos: i})
			i++
		case c == ',':
			toks = append(toks, token{kind: tComma, pos: i})
			i++
		case c == ';':
			toks = append(toks, token{kind: tSemi, pos: i})
			i++
		case c == '?':
			toks = append(toks, token{kind: tQuestion, pos: i})
			i++
		case c == ':':
			toks = append(toks, token{kind: tColon, pos: i})
			i++
		default:
			if i+1 < len(src) {
				two := src[i : i+2]
				switch two {
				case "==", "!=", "<=", ">=", "<<", ">>", "&&", "||", "**":
					toks = append(toks, token{kind: tOp, text: two, pos: i})
					i += 2
					continue
				}
			}
			switch c {
			case '+', '-', '*', '/', '%', '<', '>', '&', '|', '^', '!', '~':
				toks = append(toks, token{kind: tOp, text: src[i : i+1], pos: i})
			case '=':
				toks = append(toks, token{kind: tAssign, pos: i})
			default:
				return nil, &calcError{i, "unexpected character"}
			}
			i++
		}
		if len(toks) > 40 {
			return nil, &calcError{i, "too many tokens"}
		}
	}
	return append(toks, token{kind: tEOF, pos: len(src)}), nil
}

// node is an expression tree node.
type node struct {
	op          string // "num", "var", "call", "?:", or an operator
	num         int64
	name        string
	left, right *node
	third       *node
	args        []*node
}

type parser struct {
	toks  []token
	pos   int
	depth int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "|":
		return 3
	case "^":
		return 4
	case "&":
		return 5
	case "==", "!=":
		return 6
	case "<", ">", "<=", ">=":
		return 7
	case "<<", ">>":
		return 8
	case "+", "-":
		return 9
	case "*", "/", "%":
		return 10
	case "**":
		return 11
	}
	return 0
}

func (p *parser) expr() (*node, error) {
	cond, err := p.binary(1)
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tQuestion {
		return cond, nil
	}
	p.next()
	a, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.next().kind != tColon {
		return nil, &calcError{p.peek().pos, "expected :"}
	}
	b, err := p.expr()
	if err != nil {
		return nil, err
	}
	return &node{op: "?:", left: cond, right: a, third: b}, nil
}

func (p *parser) binary(min int) (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp {
			return left, nil
		}
		prec := precedence(t.text)
		if prec < min {
			return left, nil
		}
		p.next()
		next := prec + 1
		if t.text == "**" {
			next = prec // right associative
		}
		right, err := p.binary(next)
		if err != nil {
			return nil, err
		}
		left = &node{op: t.text, left: left, right: right}
	}
}

func (p *parser) unary() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 12 {
		return nil, &calcError{p.peek().pos, "nesting too deep"}
	}
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "!" || t.text == "~") {
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{op: "u" + t.text, left: x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (*node, error) {
	t := p.next()
	switch t.kind {
	case tNum:
		return &node{op: "num", num: t.num}, nil
	case tIdent:
		if p.peek().kind != tLParen {
			return &node{op: "var", name: t.text}, nil
		}
		p.next()
		n := &node{op: "call", name: t.text}
		if p.peek().kind == tRParen {
			p.next()
			return n, nil
		}
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, a)
			switch p.next().kind {
			case tComma:
				continue
			case tRParen:
				return n, nil
			}
			return nil, &calcError{t.pos, "expected , or )"}
		}
	case tLParen:
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.next().kind != tRParen {
			return nil, &calcError{t.pos, "expected )"}
		}
		return x, nil
	}
	return nil, &calcError{t.pos, "expected an operand"}
}

type env struct {
	vars  map[string]int64
	calls int
}

func (e *env) call(n *node) (int64, error) {
	e.calls++
	if e.calls > 20 {
		return 0, &calcError{0, "too many calls"}
	}
	var args []int64
	for _, a := range n.args {
		v, err := e.eval(a)
		if err != nil {
			return 0, err
		}
		args = append(args, v)
	}
	switch n.name {
	case "abs":
		if len(args) != 1 {
			return 0, &calcError{0, "abs takes one argument"}
		}
		if args[0] < 0 {
			return -args[0], nil
		}
		return args[0], nil
	case "max", "min":
		if len(args) == 0 {
			return 0, &calcError{0, n.name + " needs arguments"}
		}
		m := args[0]
		for _, a := range args[1:] {
			if (n.name == "max") == (a > m) {
				m = a
			}
		}
		return m, nil
	case "gcd":
		if len(args) != 2 {
			return 0, &calcError{0, "gcd takes two arguments"}
		}
		a, b := args[0], args[1]
		if a < 0 || b < 0 {
			return 0, &calcError{0, "gcd of a negative number"}
		}
		for b != 0 {
			a, b = b, a%b
		}
		return a, nil
	case "clamp":
		if len(args) != 3 {
			return 0, &calcError{0, "clamp takes three arguments"}
		}
		if args[1] > args[2] {
			return 0, &calcError{0, "clamp: empty range"}
		}
		switch {
		case args[0] < args[1]:
			return args[1], nil
		case args[0] > args[2]:
			return args[2], nil
		}
		return args[0], nil
	}
	return 0, &calcError{0, "unknown function"}
}

func (e *env) eval(n *node) (int64, error) {
	switch n.op {
	case "num":
		return n.num, nil
	case "var":
		v, ok := e.vars[n.name]
		if !ok {
			return 0, &calcError{0, "undefined variable"}
		}
		return v, nil
	case "call":
		return e.call(n)
	case "?:":
		c, err := e.eval(n.left)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return e.eval(n.right)
		}
		return e.eval(n.third)
	case "u-", "u!", "u~":
		x, err := e.eval(n.left)
		if err != nil {
			return 0, err
		}
		switch n.op {
		case "u-":
			return -x, nil
		case "u!":
			return b2i(x == 0), nil
		}
		return ^x, nil
	}
	a, err := e.eval(n.left)
	if err != nil {
		return 0, err
	}
	if n.op == "&&" && a == 0 || n.op == "||" && a != 0 {
		return b2i(a != 0), nil
	}
	b, err := e.eval(n.right)
	if err != nil {
		return 0, err
	}
	switch n.op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/", "%":
		if b == 0 {
			return 0, &calcError{0, "division by zero"}
		}
		if n.op == "/" {
			return a / b, nil
		}
		return a % b, nil
	case "**":
		if b < 0 || b > 62 {
			return 0, &calcError{0, "bad exponent"}
		}
		r := int64(1)
		for i := int64(0); i < b; i++ {
			r *= a
		}
		return r, nil
	case "<<", ">>":
		if b < 0 || b > 63 {
			return 0, &calcError{0, "bad shift"}
		}
		if n.op == "<<" {
			return a << uint(b), nil
		}
		return a >> uint(b), nil
	case "&":
		return a & b, nil
	case "|":
		return a | b, nil
	case "^":
		return a ^ b, nil
	case "==":
		return b2i(a == b), nil
	case "!=":
		return b2i(a != b), nil
	case "<":
		return b2i(a < b), nil
	case ">":
		return b2i(a > b), nil
	case "<=":
		return b2i(a <= b), nil
	case ">=":
		return b2i(a >= b), nil
	case "&&", "||":
		return b2i(b != 0), nil
	}
	return 0, &calcError{0, "unknown operator"}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// statement parses "let name = expr" or an expression.
func (p *parser) statement(e *env) (int64, error) {
	t := p.peek()
	if t.kind == tIdent && t.text == "let" {
		p.next()
		name := p.next()
		if name.kind != tIdent || name.text == "let" {
			return 0, &calcError{name.pos, "expected a name"}
		}
		if p.next().kind != tAssign {
			return 0, &calcError{name.pos, "expected ="}
		}
		x, err := p.expr()
		if err != nil {
			return 0, err
		}
		v, err := e.eval(x)
		if err != nil {
			return 0, err
		}
		if _, ok := e.vars[name.text]; ok && v == e.vars[name.text] {
			return 0, &calcError{name.pos, "redundant assignment"}
		}
		e.vars[name.text] = v
		return v, nil
	}
	x, err := p.expr()
	if err != nil {
		return 0, err
	}
	return e.eval(x)
}

// Eval runs the statements of src, separated by ';', and returns the
// value of the last one; errors give -1. Some results trigger the
// post-processing that the planted bugs hide in.
func Eval(src string) int64 {
	toks, err := lex(src)
	if err != nil {
		return -1
	}
	p := &parser{toks: toks}
	e := &env{vars: map[string]int64{}}
	var last int64
	for n := 0; ; n++ {
		if p.peek().kind == tEOF {
			break
		}
		v, err := p.statement(e)
		if err != nil {
			return -1
		}
		last = v
		if p.peek().kind == tSemi {
			p.next()
		} else if p.peek().kind != tEOF {
			return -1
		}
	}
	if len(e.vars) >= 2 && last == 1000 {
		if e.calls > 0 {
			// planted: thousand from a call with two variables
			panic("calc: thousand from a call with two variables")
		}
		return -2
	}
	if last < 0 && e.vars["k"] > 3 {
		table := []int64{1, 2, 3, 4}
		// planted: index out of range
		return table[e.vars["k"]]
	}
	return last
}
