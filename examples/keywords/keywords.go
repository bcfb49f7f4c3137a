// Package keywords parses "key = value" lines of a small configuration file.
// It shows branching on string keywords: a symbolic engine reads each keyword
// off the string comparison, while random mutation has to spell it out byte
// by byte with no coverage feedback in between.
package keywords

import (
	"errors"
	"fmt"
)

// modeCodes holds a one-letter code per known mode, indexed by modeIndex.
var modeCodes = "FSLC"

// Setting parses one configuration line and returns the numeric value it
// sets. Blank lines and lines starting with '#' set nothing and return 0.
func Setting(line string) (int, error) {
	line = trim(line)
	if len(line) == 0 || line[0] == '#' {
		return 0, nil
	}
	eq := indexByte(line, '=')
	if eq < 0 {
		return 0, errors.New("keywords: missing '='")
	}
	key := trim(line[:eq])
	val := trim(line[eq+1:])
	if len(val) == 0 {
		return 0, fmt.Errorf("keywords: empty value for %q", key)
	}
	switch key {
	case "port":
		n, err := atoi(val)
		if err != nil {
			return 0, err
		}
		if n < 1 || n > 65535 {
			return 0, errors.New("keywords: port out of range")
		}
		return n, nil
	case "level":
		n, err := atoi(val)
		if err != nil {
			return 0, err
		}
		if n > 9 {
			return 0, errors.New("keywords: level must be 0-9")
		}
		return n, nil
	case "debug":
		switch val {
		case "on", "true", "yes":
			return 1, nil
		case "off", "false", "no":
			return 0, nil
		}
		return 0, errors.New("keywords: debug must be on or off")
	case "mode":
		i := modeIndex(val)
		if i < 0 {
			return 0, fmt.Errorf("keywords: unknown mode %q", val)
		}
		// planted: index out of range
		return int(modeCodes[i]), nil
	}
	return 0, fmt.Errorf("keywords: unknown key %q", key)
}

// modeIndex maps a mode name to its position in modeCodes, or -1.
func modeIndex(v string) int {
	switch v {
	case "fast":
		return 0
	case "safe":
		return 1
	case "slow":
		return 2
	case "copy":
		return 3
	case "test": // added later; modeCodes was never extended
		return 4
	}
	return -1
}

// trim removes leading and trailing blanks and tabs.
func trim(s string) string {
	start := 0
	for start < len(s) && (s[start] == ' ' || s[start] == '\t') {
		start++
	}
	end := len(s)
	for end > start && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return s[start:end]
}

// indexByte returns the index of the first c in s, or -1.
func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// atoi parses a decimal number of at most 6 digits.
func atoi(s string) (int, error) {
	if len(s) > 6 {
		return 0, errors.New("keywords: number too long")
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("keywords: bad digit %q", c)
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
