// Package stackvm is a target of the search-strategy benchmark
// (bench/strategies): a small stack machine. A program is a header (magic,
// version, flags, constant count), a constant pool of four slots and
// bytecode; the
// machine verifies the header, decodes instructions of variable length and
// runs them with an operand stack, a call stack, local slots and a small
// memory. Its deep goals need a valid header followed by instruction
// sequences that build particular stack states.
package stackvm

// A path runs up to stepLimit instructions, each a few dozen symbolic
// conditions on reads at a symbolic index (m.code[m.pc]): without a bound
// the queries past the first ~200 executions held the solver stack for
// more than the watchdog's 6 s each, and a concolic-only run stopped
// "solver stuck". -depth bounds the conditions a query asks about.
//
//strategies:flags -depth 300

// Header layout.
const (
	magic0     = 'S'
	magic1     = 'V'
	maxVersion = 3
	maxConsts  = 4
	stackSize  = 16
	frameDepth = 4
	memSize    = 32
	stepLimit  = 200
)

// Opcodes.
const (
	opNop = iota
	opPush
	opPushK
	opPop
	opDup
	opSwap
	opOver
	opAdd
	opSub
	opMul
	opDiv
	opMod
	opAnd
	opOr
	opXor
	opShl
	opShr
	opNeg
	opEq
	opLt
	opGt
	opNot
	opJmp
	opJz
	opJnz
	opCall
	opRet
	opLoad
	opStore
	opLget
	opLset
	opSys
	opHalt
	opCount
)

// Flags of the header.
const (
	flagChecked = 1 << iota // arithmetic overflow traps
	flagTrace               // every instruction is counted by kind
	flagStrict              // unknown syscalls are errors
	flagWide                // immediates are two bytes
)

// vmError is an error of the machine, with the program counter.
type vmError struct {
	msg string
	pc  int
}

func (e *vmError) Error() string { return "stackvm: " + e.msg + " at " + itoa(e.pc) }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [24]byte
	i := len(b)
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

type frame struct {
	ret    int
	locals [4]int32
	base   int
}

type machine struct {
	code    []byte
	consts  []int32
	flags   byte
	version byte
	stack   [stackSize]int32
	sp      int
	frames  [frameDepth]frame
	fp      int
	mem     [memSize]int32
	pc      int
	steps   int
	counts  [opCount]int
	out     []int32
	halted  bool
	exit    int32
}

type header struct {
	version byte
	flags   byte
	nconst  int
	codeOff int
}

// parseHeader checks the magic, version, flags and constant pool size.
func parseHeader(p []byte, h *header) error {
	if len(p) < 4 {
		return &vmError{"short header", 0}
	}
	if p[0] != magic0 || p[1] != magic1 {
		return &vmError{"bad magic", 0}
	}
	h.version = p[2] >> 4
	h.flags = p[2] & 0x0f
	if h.version == 0 || h.version > maxVersion {
		return &vmError{"unsupported version", 2}
	}
	if h.version < 2 && h.flags&flagWide != 0 {
		return &vmError{"wide immediates need version 2", 2}
	}
	h.nconst = int(p[3])
	if h.nconst > maxConsts {
		return &vmError{"too many constants", 3}
	}
	// The pool always has maxConsts slots; nconst of them are valid.
	h.codeOff = 4 + 2*maxConsts
	if h.codeOff > len(p) {
		return &vmError{"truncated constant pool", 4}
	}
	return nil
}

func load(p []byte) (*machine, error) {
	var h header
	if err := parseHeader(p, &h); err != nil {
		return nil, err
	}
	m := &machine{version: h.version, flags: h.flags}
	for i := 0; i < h.nconst; i++ {
		lo, hi := p[4+2*i], p[5+2*i]
		v := int32(int16(uint16(hi)<<8 | uint16(lo)))
		if h.version == 1 && v < 0 {
			return nil, &vmError{"negative constant in version 1", 4 + 2*i}
		}
		m.consts = append(m.consts, v)
	}
	m.code = p[h.codeOff:]
	if len(m.code) == 0 {
		return nil, &vmError{"no code", h.codeOff}
	}
	return m, nil
}

func (m *machine) push(v int32) error {
	if m.sp >= stackSize {
		return &vmError{"stack overflow", m.pc}
	}
	m.stack[m.sp] = v
	m.sp++
	return nil
}

func (m *machine) pop() (int32, error) {
	if m.sp <= m.frames[m.fp].base {
		return 0, &vmError{"stack underflow", m.pc}
	}
	m.sp--
	return m.stack[m.sp], nil
}

func (m *machine) pop2() (int32, int32, error) {
	b, err := m.pop()
	if err != nil {
		return 0, 0, err
	}
	a, err := m.pop()
	if err != nil {
		return 0, 0, err
	}
	return a, b, nil
}

// imm reads an immediate operand: one byte, or two with flagWide.
func (m *machine) imm() (int, error) {
	if m.flags&flagWide != 0 {
		if m.pc+2 > len(m.code) {
			return 0, &vmError{"truncated wide operand", m.pc}
		}
		v := int(int16(uint16(m.code[m.pc]) | uint16(m.code[m.pc+1])<<8))
		m.pc += 2
		return v, nil
	}
	if m.pc+1 > len(m.code) {
		return 0, &vmError{"truncated operand", m.pc}
	}
	v := int(int8(m.code[m.pc]))
	m.pc++
	return v, nil
}

func (m *machine) target(off int) (int, error) {
	t := m.pc + off
	if t < 0 || t >= len(m.code) {
		return 0, &vmError{"jump out of code", m.pc}
	}
	return t, nil
}

func (m *machine) checked(r int64) (int32, error) {
	if m.flags&flagChecked != 0 && (r > 1<<31-1 || r < -1<<31) {
		return 0, &vmError{"overflow", m.pc}
	}
	return int32(r), nil
}

func (m *machine) arith(op byte) error {
	a, b, err := m.pop2()
	if err != nil {
		return err
	}
	var r int64
	switch op {
	case opAdd:
		r = int64(a) + int64(b)
	case opSub:
		r = int64(a) - int64(b)
	case opMul:
		r = int64(a) * int64(b)
	case opDiv, opMod:
		if b == 0 {
			if m.version >= 3 {
				return &vmError{"division by zero", m.pc}
			}
			// Version 2 defines x/0 as 0, but the modulo path forgot it.
			if op == opDiv {
				return m.push(0)
			}
		}
		if op == opDiv {
			r = int64(a) / int64(b)
		} else {
			// planted: integer divide by zero
			r = int64(a % b)
		}
	case opAnd:
		r = int64(a & b)
	case opOr:
		r = int64(a | b)
	case opXor:
		r = int64(a ^ b)
	case opShl:
		if b < 0 || b > 31 {
			return &vmError{"bad shift", m.pc}
		}
		r = int64(a) << uint(b)
	case opShr:
		if b < 0 || b > 31 {
			return &vmError{"bad shift", m.pc}
		}
		r = int64(a >> uint(b))
	case opEq:
		r = b2i(a == b)
	case opLt:
		r = b2i(a < b)
	case opGt:
		r = b2i(a > b)
	}
	v, err := m.checked(r)
	if err != nil {
		return err
	}
	return m.push(v)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// syscall runs service n on the stack.
func (m *machine) syscall(n int) error {
	switch n {
	case 0: // print
		v, err := m.pop()
		if err != nil {
			return err
		}
		m.out = append(m.out, v)
		if len(m.out) > 8 {
			return &vmError{"output full", m.pc}
		}
	case 1: // assert
		v, err := m.pop()
		if err != nil {
			return err
		}
		if v == 0 {
			return &vmError{"assertion failed", m.pc}
		}
	case 2: // memory fill: addr, count, value
		val, err := m.pop()
		if err != nil {
			return err
		}
		cnt, addr, err := m.pop2()
		if err != nil {
			return err
		}
		if addr < 0 || cnt < 0 || int(addr)+int(cnt) > memSize {
			return &vmError{"fill out of memory", m.pc}
		}
		for i := int32(0); i < cnt; i++ {
			m.mem[addr+i] = val
		}
	case 3: // checksum of memory
		var s int32
		for i, v := range m.mem {
			s += v * int32(i+1)
		}
		return m.push(s)
	case 7: // debug dump, only with tracing
		if m.flags&flagTrace == 0 {
			return &vmError{"debug needs trace", m.pc}
		}
		if m.counts[opCall] > 0 && m.counts[opSys] > 2 && m.out != nil && m.out[len(m.out)-1] == 0x5a5a {
			// planted: debug dump of a live frame
			panic("stackvm: debug dump of a live frame")
		}
	default:
		if m.flags&flagStrict != 0 {
			return &vmError{"unknown syscall", m.pc}
		}
	}
	return nil
}

func (m *machine) step() error {
	if m.pc >= len(m.code) {
		return &vmError{"fell off the code", m.pc}
	}
	m.steps++
	if m.steps > stepLimit {
		return &vmError{"step limit", m.pc}
	}
	op := m.code[m.pc]
	m.pc++
	if op >= opCount {
		return &vmError{"bad opcode", m.pc - 1}
	}
	if m.flags&flagTrace != 0 {
		m.counts[op]++
	}
	switch op {
	case opNop:
	case opPush:
		v, err := m.imm()
		if err != nil {
			return err
		}
		return m.push(int32(v))
	case opPushK:
		k, err := m.imm()
		if err != nil {
			return err
		}
		if k < 0 || k >= len(m.consts) {
			return &vmError{"bad constant index", m.pc}
		}
		return m.push(m.consts[k])
	case opPop:
		_, err := m.pop()
		return err
	case opDup:
		v, err := m.pop()
		if err != nil {
			return err
		}
		if err := m.push(v); err != nil {
			return err
		}
		return m.push(v)
	case opSwap:
		a, b, err := m.pop2()
		if err != nil {
			return err
		}
		m.push(b)
		return m.push(a)
	case opOver:
		a, b, err := m.pop2()
		if err != nil {
			return err
		}
		m.push(a)
		m.push(b)
		return m.push(a)
	case opAdd, opSub, opMul, opDiv, opMod, opAnd, opOr, opXor, opShl, opShr, opEq, opLt, opGt:
		return m.arith(op)
	case opNeg:
		v, err := m.pop()
		if err != nil {
			return err
		}
		r, err := m.checked(-int64(v))
		if err != nil {
			return err
		}
		return m.push(r)
	case opNot:
		v, err := m.pop()
		if err != nil {
			return err
		}
		return m.push(int32(b2i(v == 0)))
	case opJmp, opJz, opJnz:
		off, err := m.imm()
		if err != nil {
			return err
		}
		t, err := m.target(off)
		if err != nil {
			return err
		}
		if op == opJmp {
			m.pc = t
			return nil
		}
		v, err := m.pop()
		if err != nil {
			return err
		}
		if (v == 0) == (op == opJz) {
			m.pc = t
		}
	case opCall:
		off, err := m.imm()
		if err != nil {
			return err
		}
		t, err := m.target(off)
		if err != nil {
			return err
		}
		if m.fp+1 >= frameDepth {
			return &vmError{"call depth", m.pc}
		}
		m.fp++
		m.frames[m.fp] = frame{ret: m.pc, base: m.sp}
		m.pc = t
	case opRet:
		if m.fp == 0 {
			m.halted = true
			return nil
		}
		var rv int32
		hasRV := m.sp > m.frames[m.fp].base
		if hasRV {
			rv, _ = m.pop()
		}
		m.sp = m.frames[m.fp].base
		m.pc = m.frames[m.fp].ret
		m.fp--
		if hasRV {
			return m.push(rv)
		}
	case opLoad, opStore:
		addr, err := m.pop()
		if err != nil {
			return err
		}
		if addr < 0 || addr >= memSize {
			if m.version == 3 && addr == memSize && op == opStore {
				// Version 3 maps one guard word past the end.
				// planted: index out of range
				m.mem[addr] = 0
			}
			return &vmError{"memory access out of range", m.pc}
		}
		if op == opLoad {
			return m.push(m.mem[addr])
		}
		v, err := m.pop()
		if err != nil {
			return err
		}
		m.mem[addr] = v
	case opLget, opLset:
		i, err := m.imm()
		if err != nil {
			return err
		}
		if i < 0 || i >= 4 {
			return &vmError{"bad local", m.pc}
		}
		f := &m.frames[m.fp]
		if op == opLget {
			return m.push(f.locals[i])
		}
		v, err := m.pop()
		if err != nil {
			return err
		}
		f.locals[i] = v
	case opSys:
		n, err := m.imm()
		if err != nil {
			return err
		}
		return m.syscall(n)
	case opHalt:
		v, err := m.pop()
		if err != nil {
			return err
		}
		m.halted = true
		m.exit = v
	}
	return nil
}

// Result is what a program computed.
type result struct {
	exit  int32
	out   []int32
	steps int
}

// verify walks the code once and rejects programs whose instructions
// are cut off or whose jumps leave the code, before anything runs.
func verify(m *machine) error {
	wide := m.flags&flagWide != 0
	for pc := 0; pc < len(m.code); {
		op := m.code[pc]
		if op >= opCount {
			return &vmError{"verify: bad opcode", pc}
		}
		pc++
		switch op {
		case opPush, opPushK, opJmp, opJz, opJnz, opCall, opLget, opLset, opSys:
			n := 1
			if wide {
				n = 2
			}
			if pc+n > len(m.code) {
				return &vmError{"verify: truncated instruction", pc}
			}
			pc += n
		}
	}
	return nil
}

func execute(p []byte) (result, error) {
	m, err := load(p)
	if err != nil {
		return result{}, err
	}
	if err := verify(m); err != nil {
		return result{}, err
	}
	for !m.halted {
		if err := m.step(); err != nil {
			return result{}, err
		}
	}
	return result{exit: m.exit, out: m.out, steps: m.steps}, nil
}

// Run loads and runs the program p and classifies its outcome: a negative
// number for a rejected program, 0 for a normal halt, and larger numbers
// for the interesting exits the tests look for.
func Run(p []byte) int {
	r, err := execute(p)
	if err != nil {
		return -1
	}
	switch {
	case r.exit == 42 && len(r.out) == 2 && r.out[0] == r.out[1]:
		if r.steps > 12 {
			// planted: twin outputs after a long run
			panic("stackvm: twin outputs after a long run")
		}
		return 3
	case r.exit < 0 && r.exit%7 == 0:
		return 2
	case len(r.out) > 0:
		return 1
	}
	return 0
}
