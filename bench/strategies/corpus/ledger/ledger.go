// Package ledger is a target of the search-strategy benchmark
// (bench/strategies): a reader of CSV bank statements (RFC 4180 quoting:
// quoted fields, doubled quotes, separators and line breaks inside
// quotes) with a header row that names the columns in any order, followed
// by typed records (dates, signed decimal amounts with two decimals,
// currencies, categories) and a reconciliation of the balance column. Its
// deep goals need a header, several records whose fields parse, and
// amounts that add up.
package ledger

//strategies:flags -maxlen 64

type csvError struct {
	line int
	msg  string
}

func (e *csvError) Error() string { return "ledger: " + e.msg }

// reader splits CSV text into records.
type reader struct {
	src   string
	pos   int
	line  int
	sep   byte
	lazy  bool // a bare quote inside an unquoted field is kept
	nrecs int
}

const (
	maxFields  = 6
	maxRecords = 8
	maxField   = 16
)

// field reads one field; it returns whether the record goes on.
func (r *reader) field() (string, bool, error) {
	if r.pos < len(r.src) && r.src[r.pos] == '"' {
		return r.quoted()
	}
	start := r.pos
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		if c == r.sep {
			f := r.src[start:r.pos]
			r.pos++
			return f, true, nil
		}
		if c == '\n' || c == '\r' {
			break
		}
		if c == '"' && !r.lazy {
			return "", false, &csvError{r.line, "bare quote in a field"}
		}
		r.pos++
	}
	f := r.src[start:r.pos]
	return f, false, r.endOfRecord()
}

// endOfRecord consumes a line break: \n or \r\n.
func (r *reader) endOfRecord() error {
	if r.pos >= len(r.src) {
		return nil
	}
	if r.src[r.pos] == '\r' {
		r.pos++
		if r.pos >= len(r.src) || r.src[r.pos] != '\n' {
			return &csvError{r.line, "carriage return without line feed"}
		}
	}
	r.pos++
	r.line++
	return nil
}

func (r *reader) quoted() (string, bool, error) {
	r.pos++ // opening quote
	var b []byte
	for {
		if r.pos >= len(r.src) {
			return "", false, &csvError{r.line, "unterminated quoted field"}
		}
		c := r.src[r.pos]
		r.pos++
		if c == '\n' {
			r.line++
		}
		if c != '"' {
			b = append(b, c)
			if len(b) > maxField {
				return "", false, &csvError{r.line, "field too long"}
			}
			continue
		}
		if r.pos < len(r.src) && r.src[r.pos] == '"' {
			b = append(b, '"')
			r.pos++
			continue
		}
		break
	}
	if r.pos >= len(r.src) {
		return string(b), false, nil
	}
	switch c := r.src[r.pos]; {
	case c == r.sep:
		r.pos++
		return string(b), true, nil
	case c == '\n' || c == '\r':
		return string(b), false, r.endOfRecord()
	}
	return "", false, &csvError{r.line, "text after a closing quote"}
}

// record reads the next record; nil at the end of the input.
func (r *reader) record() ([]string, error) {
	if r.pos >= len(r.src) {
		return nil, nil
	}
	var fs []string
	for {
		f, more, err := r.field()
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
		if len(fs) > maxFields {
			return nil, &csvError{r.line, "too many fields"}
		}
		if !more {
			break
		}
	}
	r.nrecs++
	if r.nrecs > maxRecords {
		return nil, &csvError{r.line, "too many records"}
	}
	return fs, nil
}

// Columns a statement may have.
const (
	colDate = iota
	colAmount
	colCurrency
	colCategory
	colBalance
	colMemo
	numCols
)

var colNames = [numCols]string{"date", "amount", "currency", "category", "balance", "memo"}

func lower(s string) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

// header maps each column to its field index, -1 when absent.
func header(fs []string) ([numCols]int, error) {
	var idx [numCols]int
	for i := range idx {
		idx[i] = -1
	}
	for i, f := range fs {
		name := lower(f)
		found := false
		for c, n := range colNames {
			if name == n {
				if idx[c] >= 0 {
					return idx, &csvError{1, "duplicate column"}
				}
				idx[c] = i
				found = true
			}
		}
		if !found {
			return idx, &csvError{1, "unknown column"}
		}
	}
	if idx[colDate] < 0 || idx[colAmount] < 0 {
		return idx, &csvError{1, "date and amount are required"}
	}
	return idx, nil
}

// cents parses a signed decimal amount with at most two decimals and an
// optional thousands separator, into cents.
func cents(s string) (int64, error) {
	if s == "" {
		return 0, &csvError{0, "empty amount"}
	}
	neg := false
	i := 0
	switch s[0] {
	case '-':
		neg = true
		i++
	case '+':
		i++
	case '(':
		// Accounting notation: (12.50) is negative.
		if s[len(s)-1] != ')' {
			return 0, &csvError{0, "unbalanced parenthesis"}
		}
		neg = true
		s = s[:len(s)-1]
		i++
	}
	var whole int64
	digits, group := 0, -1
	for ; i < len(s) && s[i] != '.'; i++ {
		c := s[i]
		if c == ',' {
			if digits == 0 || (group >= 0 && group != 3) {
				return 0, &csvError{0, "misplaced thousands separator"}
			}
			group = 0
			continue
		}
		if c < '0' || c > '9' {
			return 0, &csvError{0, "bad digit"}
		}
		whole = whole*10 + int64(c-'0')
		if whole > 1e9 {
			return 0, &csvError{0, "amount too large"}
		}
		digits++
		if group >= 0 {
			group++
		}
	}
	if digits == 0 || group >= 0 && group != 3 {
		return 0, &csvError{0, "bad integer part"}
	}
	frac := int64(0)
	if i < len(s) {
		i++ // '.'
		n := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, &csvError{0, "bad decimal"}
			}
			frac = frac*10 + int64(c-'0')
			n++
		}
		if n == 0 || n > 2 {
			return 0, &csvError{0, "one or two decimals"}
		}
		if n == 1 {
			frac *= 10
		}
	}
	v := whole*100 + frac
	if neg {
		v = -v
	}
	return v, nil
}

// day parses YYYY-MM-DD into a day number (not a calendar: months of 31
// days), for ordering.
func day(s string) (int, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, &csvError{0, "date is YYYY-MM-DD"}
	}
	n := 0
	for i, c := range []byte(s) {
		if i == 4 || i == 7 {
			continue
		}
		if c < '0' || c > '9' {
			return 0, &csvError{0, "bad date digit"}
		}
		n = n*10 + int(c-'0')
	}
	y, m, d := n/10000, n/100%100, n%100
	if y < 1990 || y > 2099 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, &csvError{0, "date out of range"}
	}
	return (y*12+m-1)*31 + d - 1, nil
}

type entry struct {
	day      int
	amount   int64
	currency string
	category string
	balance  int64
	hasBal   bool
	ref      int // structured reference of the memo, 0 if none
}

// reference reads a structured creditor reference "RFcc nnnn" from a
// memo: cc are two check digits such that the number and cc leave 1
// modulo 97 (a shortened ISO 11649).
func reference(memo string) (int, error) {
	if len(memo) < 4 || memo[0] != 'R' || memo[1] != 'F' {
		return 0, nil
	}
	check, n, digits := 0, 0, 0
	for i := 2; i < len(memo); i++ {
		c := memo[i]
		if c == ' ' {
			continue
		}
		if c < '0' || c > '9' {
			return 0, &csvError{0, "bad reference digit"}
		}
		if i < 4 {
			check = check*10 + int(c-'0')
			continue
		}
		n = n*10 + int(c-'0')
		digits++
		if digits > 6 {
			return 0, &csvError{0, "reference too long"}
		}
	}
	if digits == 0 || (n*100+check)%97 != 1 {
		return 0, &csvError{0, "reference check digits"}
	}
	return n, nil
}

func parseEntry(fs []string, idx [numCols]int, line int) (entry, error) {
	var e entry
	get := func(c int) string {
		if idx[c] < 0 || idx[c] >= len(fs) {
			return ""
		}
		return fs[idx[c]]
	}
	var err error
	if e.day, err = day(get(colDate)); err != nil {
		return e, err
	}
	if e.amount, err = cents(get(colAmount)); err != nil {
		return e, err
	}
	e.currency = get(colCurrency)
	switch e.currency {
	case "", "EUR", "USD", "CHF":
	default:
		return e, &csvError{line, "unknown currency"}
	}
	e.category = get(colCategory)
	if b := get(colBalance); b != "" {
		if e.balance, err = cents(b); err != nil {
			return e, err
		}
		e.hasBal = true
	}
	if e.ref, err = reference(get(colMemo)); err != nil {
		return e, err
	}
	return e, nil
}

// statement is what a file adds up to.
type statement struct {
	entries  []entry
	currency string
	credits  int64
	debits   int64
	byCat    map[string]int64
}

func reconcile(st *statement) (int, error) {
	var running int64
	haveRunning := false
	last := -1
	for i, e := range st.entries {
		if e.day < last {
			return 0, &csvError{i + 2, "dates go backwards"}
		}
		last = e.day
		if e.currency != "" {
			if st.currency == "" {
				st.currency = e.currency
			} else if e.currency != st.currency {
				return 0, &csvError{i + 2, "mixed currencies"}
			}
		}
		if e.amount >= 0 {
			st.credits += e.amount
		} else {
			st.debits -= e.amount
		}
		if e.category != "" {
			st.byCat[e.category] += e.amount
		}
		if e.hasBal {
			if haveRunning && running+e.amount != e.balance {
				return 0, &csvError{i + 2, "balance does not reconcile"}
			}
			running = e.balance
			haveRunning = true
		} else if haveRunning {
			running += e.amount
		}
	}
	score := 0
	if haveRunning {
		score++
	}
	if st.credits > 0 && st.credits == st.debits {
		score += 2
	}
	if len(st.byCat) >= 2 {
		score++
	}
	refs := map[int]bool{}
	for i, e := range st.entries {
		if e.ref == 0 {
			continue
		}
		if refs[e.ref] {
			return 0, &csvError{i + 2, "reference paid twice"}
		}
		refs[e.ref] = true
		score++
	}
	return score, nil
}

// Import reads a CSV statement and returns a score of what it reconciled:
// -1 for a file that does not parse or reconcile.
func Import(src string) int {
	r := &reader{src: src, line: 1, sep: ','}
	if len(src) > 0 && src[0] == ';' {
		// "sep=;" style: a first byte ';' selects the separator and
		// tolerant quoting.
		r.sep, r.lazy = ';', true
		r.pos++
	}
	hdr, err := r.record()
	if err != nil || hdr == nil {
		return -1
	}
	idx, err := header(hdr)
	if err != nil {
		return -1
	}
	st := &statement{byCat: map[string]int64{}}
	for {
		fs, err := r.record()
		if err != nil {
			return -1
		}
		if fs == nil {
			break
		}
		if len(fs) == 1 && fs[0] == "" {
			continue // blank line
		}
		if len(fs) != len(hdr) {
			return -1
		}
		e, err := parseEntry(fs, idx, r.line)
		if err != nil {
			return -1
		}
		st.entries = append(st.entries, e)
	}
	score, err := reconcile(st)
	if err != nil {
		return -1
	}
	if score >= 3 && st.currency == "CHF" {
		// planted: balanced Swiss statement
		panic("ledger: balanced Swiss statement")
	}
	if v, ok := st.byCat["fee"]; ok && v < 0 && r.lazy {
		// The fee share of debits, in percent.
		// planted: integer divide by zero
		share := -v * 100 / st.credits
		score += int(share)
	}
	return score
}
