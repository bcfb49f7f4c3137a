// Package scanner counts the tokens of a tiny expression language with a
// byte-at-a-time state machine. It shows a loop whose interesting behaviour
// needs a long, exact sequence of input bytes: a string literal holding the
// \uFEFF escape, which the scanner never expected to see.
package scanner

import (
	"errors"
	"fmt"
)

// Scanner states.
const (
	stSpace   = 0 // between tokens
	stIdent   = 1 // inside an identifier
	stNumber  = 2 // inside a decimal number
	stString  = 3 // inside a "..." literal
	stEscape  = 4 // just after a backslash in a literal
	stUnicode = 5 // reading the 4 hex digits of a \u escape
)

// Tokens returns the number of tokens in src: identifiers, decimal numbers,
// double-quoted strings (with \n \t \\ \" and \uXXXX escapes) and the
// single-byte operators + - * / ( ) = , ;.
func Tokens(src []byte) (int, error) {
	state := stSpace
	count := 0
	code := 0
	digits := 0
	for i, c := range src {
		// Identifiers and numbers end at the first byte that cannot
		// continue them; that byte is then scanned as the start of the next
		// token.
		if state == stIdent {
			if isLetter(c) || isDigit(c) {
				continue
			}
			state = stSpace
		} else if state == stNumber {
			if isDigit(c) {
				continue
			}
			if isLetter(c) {
				return count, fmt.Errorf("scanner: letter in number at offset %d", i)
			}
			state = stSpace
		}
		switch state {
		case stSpace:
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r':
				// skip
			case isLetter(c):
				state = stIdent
				count++
			case isDigit(c):
				state = stNumber
				count++
			case c == '"':
				state = stString
				count++
			case isOperator(c):
				count++
			default:
				return count, fmt.Errorf("scanner: unexpected byte %#x at offset %d", c, i)
			}
		case stString:
			if c == '"' {
				state = stSpace
			} else if c == '\\' {
				state = stEscape
			} else if c == '\n' {
				return count, errors.New("scanner: newline in string literal")
			}
		case stEscape:
			switch c {
			case 'n', 't', '\\', '"':
				state = stString
			case 'u':
				state = stUnicode
				code = 0
				digits = 0
			default:
				return count, fmt.Errorf("scanner: bad escape at offset %d", i)
			}
		case stUnicode:
			v := hexValue(c)
			if v < 0 {
				return count, fmt.Errorf("scanner: bad hex digit at offset %d", i)
			}
			code = code<<4 | v
			digits++
			if digits == 4 {
				if code == 0xFEFF {
					// planted: byte order mark inside string literal
					panic("scanner: byte order mark inside string literal")
				}
				state = stString
			}
		}
	}
	if state == stString || state == stEscape || state == stUnicode {
		return count, errors.New("scanner: unterminated string literal")
	}
	return count, nil
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool {
	return c >= '0' && c <= '9'
}

func isOperator(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '(', ')', '=', ',', ';':
		return true
	}
	return false
}

// hexValue returns the value of hex digit c, or -1.
func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
