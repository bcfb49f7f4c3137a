package p

// Multi-value assignments from calls with twins to fields, elements and
// pointees, in a block and in an if's init statement.

type murl struct {
	scheme, host string
	n            [3]int
}

func mscheme(s string) (string, string, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], nil
		}
	}
	return "", s, nil
}

func mpair(a int64) (int, int) { return int(a % 3), int(a / 3) }

// MultiFields assigns a call's results to fields (through a pointer), to
// an element whose index the same statement assigns, and to a blank, then
// branches on them.
func MultiFields(a int64, s string) (string, string, int, [3]int) {
	u := &murl{}
	var rest string
	var err error
	if u.scheme, rest, err = mscheme(s); err != nil {
		return "", "", 0, u.n
	}
	u.host, _, _ = mscheme(rest)
	i := 0
	i, u.n[i] = mpair(a) // u.n[0] is assigned, whatever i becomes
	p := &u.n[1]
	*p, _ = mpair(a + 1)
	score := 0
	if u.scheme == "ab" {
		score++
	}
	if len(u.host) > 2 && u.host[0] == 'x' {
		score += 10
	}
	if u.n[0] == 2 && *p == 1 {
		score += 100
	}
	return u.scheme, u.host, score + i, u.n
}
