package p

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// names names the functions Run dispatches to, in the order of its cases.
var names = [...]string{
	"Arith8", "Arith16", "Arith32", "Arith64", "ArithInt",
	"DivMod", "DivMod8", "DivU32", "DivAssign",
	"ShiftU", "ShiftSigned", "ShiftConst", "ShiftAssign", "ShiftUntyped",
	"Convert", "ConvertSigned", "Bits", "IncDec",
	"Compare", "CompareU", "Logic", "BoolOps",
	"StrOps", "StrIndex", "StrSlice", "StrSliceU", "BytesOps", "BytesSlice", "BytesAlias", "StrBytes", "StrCompareNonASCII",
	"RangeBytes", "RangeString", "RangeStringAssign", "IndexLoop",
	"SwitchTagged", "SwitchString", "SwitchTagless", "SwitchBool",
	"Labeled", "LabeledSwitch", "Goto", "Reverse", "Swap",
	"Closure", "ClosureString", "DeferRecover", "DeferOrder", "DeferNamed",
	"Methods", "MultiResults", "MultiArgs", "Variadic", "Globals",
	"NamedTypes", "NamedBuf", "VarDecls", "CommaOk", "AssertPanic", "AddrTaken",
	"Generic", "Structs", "Channels", "TypeSwitch", "Fib", "Wrap", "Builtins", "Panics",
	"RangeModify", "ClosureRange", "DeferInRange", "RangePanic", "LabeledRange", "GotoOutOfRange",
	"SwitchBreak", "SwitchSideEffects", "VariadicValue", "StorePanic", "DeferArgs",
	"OrderGlobal", "OrderClosure", "OrderReturn", "OrderAssign",
	"FloatArith", "Float32Ops", "FloatBranches", "FloatConvEdge", "FloatFromUnsigned",
	"MemFields", "MemOps", "MemCopy", "MemIndex", "MemNil",
	"ModelStrings", "MemBytes", "Maps", "Containers",
	"LitCalls", "LitFallback", "LitGoDefer", "LitPanic", "LitPanicLine", "MethodVals", "LitGeneric", "LitGenericType",
	"OrderedInts", "OrderedFloats", "OrderedStrings", "MethodDeref",
	"IfaceCalls", "IfaceNil", "IfaceErr", "LitIfaceField", "Wide",
	"RangeCapture", "RangeRunes", "RangeAssignForms", "RangeControl", "RangeCapturePerLoop", "RangeInt", "CopyMake",
	"CopyInto", "BuildBox", "MultiFields", "MinMax", "Results", "Clears", "AppendLits",
	"LitArgs", "PoolCap", "IndexStores", "ClassCopy", "Slices3",
}

// N is the number of functions Run dispatches to.
const N = len(names)

// FuncName returns the name of function fn.
func FuncName(fn int) string { return names[fn] }

// Run calls function fn with arguments derived from a, b, s and bs and
// prints its results, or the panic it raised and where. It is the entry
// function of the instrumented package: in a worker, its parameters are
// the symbolic inputs.
func Run(fn int, a, b int64, s string, bs []byte) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = "panic: " + fmt.Sprint(r) + " at " + where()
		}
	}()
	switch fn {
	case 0:
		return show(Arith8(int8(a), int8(b)))
	case 1:
		return show(Arith16(uint16(a), uint16(b)))
	case 2:
		return show(Arith32(int32(a), int32(b)))
	case 3:
		return show(Arith64(uint64(a), uint64(b)))
	case 4:
		return show(ArithInt(int(a), int(b)))
	case 5:
		return show(DivMod(int(a), int(b)))
	case 6:
		return show(DivMod8(int8(a), int8(b)))
	case 7:
		return show(DivU32(uint32(a), uint32(b)))
	case 8:
		return show(DivAssign(int16(a), int16(b)))
	case 9:
		return show(ShiftU(int32(a), uint(b)))
	case 10:
		return show(ShiftSigned(uint8(a), int(b)))
	case 11:
		return show(ShiftConst(a))
	case 12:
		return show(ShiftAssign(int(a), int8(b)))
	case 13:
		return show(ShiftUntyped(uint8(b)))
	case 14:
		return show(Convert(a))
	case 15:
		return show(ConvertSigned(int8(a), uint16(b)))
	case 16:
		return show(Bits(uint16(a), uint16(b)))
	case 17:
		return show(IncDec(uint8(a), int8(b)))
	case 18:
		return show(Compare(int16(a), int16(b)))
	case 19:
		return show(CompareU(uint(a), uint(b)))
	case 20:
		return show(Logic(int(a), int(b)))
	case 21:
		return show(BoolOps(a > 0, b&1 == 1))
	case 22:
		return show(StrOps(s, string(bs)))
	case 23:
		return show(StrIndex(s, int(a)))
	case 24:
		return show(StrSlice(s, int(a), int(b)))
	case 25:
		return show(StrSliceU(s, uint8(a), int16(b)))
	case 26:
		return show(BytesOps(bs, int(a)))
	case 27:
		return show(BytesSlice(bs, int(a), int(b)))
	case 28:
		return show(BytesAlias(bs))
	case 29:
		return show(StrBytes(s))
	case 30:
		return show(StrCompareNonASCII(s, string(bs)))
	case 31:
		return show(RangeBytes(bs))
	case 32:
		return show(RangeString(s))
	case 33:
		return show(RangeStringAssign(s))
	case 34:
		return show(IndexLoop(s))
	case 35:
		return show(SwitchTagged(int(a)))
	case 36:
		return show(SwitchString(s))
	case 37:
		return show(SwitchTagless(int(a), s))
	case 38:
		return show(SwitchBool(a > 0, uint8(b)))
	case 39:
		return show(Labeled(int(a)))
	case 40:
		return show(LabeledSwitch(int(a)))
	case 41:
		return show(Goto(int(a)))
	case 42:
		return show(Reverse(s))
	case 43:
		return show(Swap(int(a), int(b), len(s)))
	case 44:
		return show(Closure(int(a)))
	case 45:
		return show(ClosureString(s))
	case 46:
		return show(DeferRecover(int(a), int(b)))
	case 47:
		return show(DeferOrder(int(a)))
	case 48:
		return show(DeferNamed(s))
	case 49:
		return show(Methods(int(a)))
	case 50:
		return show(MultiResults(int(a), int(b)))
	case 51:
		return show(MultiArgs(s))
	case 52:
		return show(Variadic(int(a), int(b)))
	case 53:
		return show(Globals(int(a)))
	case 54:
		return show(NamedTypes(a, s))
	case 55:
		return show(NamedBuf(Buf(bs), int(b)))
	case 56:
		return show(VarDecls(int(a)))
	case 57:
		return show(CommaOk(int(a), s))
	case 58:
		return show(AssertPanic(int(a)))
	case 59:
		return show(AddrTaken(int(a)))
	case 60:
		return show(Generic(int(a), s))
	case 61:
		return show(Structs(int(a), int(b)))
	case 62:
		return show(Channels(int(a)))
	case 63:
		return show(TypeSwitch(int(a), s))
	case 64:
		return show(Fib(uint8(a) % 20))
	case 65:
		return show(Wrap(uint8(a)))
	case 66:
		return show(Builtins(int(a), int(b), s))
	case 67:
		return show(Panics(int(a), s))
	case 68:
		return show(RangeModify(bs))
	case 69:
		return show(ClosureRange(s))
	case 70:
		return show(DeferInRange(s))
	case 71:
		return show(RangePanic(s, int(a)))
	case 72:
		return show(LabeledRange(s, string(bs)))
	case 73:
		return show(GotoOutOfRange(s))
	case 74:
		return show(SwitchBreak(int(a)))
	case 75:
		return show(SwitchSideEffects(int(a)))
	case 76:
		return show(VariadicValue(int(a)))
	case 77:
		return show(StorePanic(bs, int(a), int(b)))
	case 78:
		return show(DeferArgs(int(a), s))
	case 79:
		return show(OrderGlobal(int(a)))
	case 80:
		return show(OrderClosure(int(a)))
	case 81:
		return show(OrderReturn(int(a)))
	case 82:
		return show(OrderAssign(int(a)))
	case 83:
		return show(FloatArith(a, b))
	case 84:
		return show(Float32Ops(a, b))
	case 85:
		return show(FloatBranches(a, b))
	case 86:
		return show(FloatConvEdge(a))
	case 87:
		return show(FloatFromUnsigned(a, b))
	case 88:
		return show(MemFields(a, b, s))
	case 89:
		return show(MemOps(a, b, s))
	case 90:
		return show(MemCopy(a, b))
	case 91:
		return show(MemIndex(a, b))
	case 92:
		return show(MemNil(a))
	case 93:
		return show(ModelStrings(a, b, s, bs))
	case 94:
		return show(MemBytes(a, s, bs))
	case 95:
		return show(Maps(a, b, s))
	case 96:
		return show(Containers(a, b, s, bs))
	case 97:
		return show(LitCalls(int(a), s))
	case 98:
		return show(LitFallback(s))
	case 99:
		return show(LitGoDefer(int(a)))
	case 100:
		return show(LitPanic(int(a), int(b)))
	case 101:
		return show(LitPanicLine(int(a)))
	case 102:
		return show(MethodVals(int(a)))
	case 103:
		return show(LitGeneric(int(a)))
	case 104:
		return show(LitGenericType(int(a), int(b)))
	case 105:
		return show(OrderedInts(a, b))
	case 106:
		return show(OrderedFloats(a, b))
	case 107:
		return show(OrderedStrings(s, string(bs), a))
	case 108:
		return show(MethodDeref(int(a)))
	case 109:
		return show(IfaceCalls(int(a), int(b), s))
	case 110:
		return show(IfaceNil(int(a)))
	case 111:
		return show(IfaceErr(int(a)))
	case 112:
		return show(LitIfaceField(int(a), s))
	case 113:
		return show(Wide(int(a), int(b), s))
	case 114:
		return show(RangeCapture(s, bs))
	case 115:
		return show(RangeRunes(s, bs))
	case 116:
		return show(RangeAssignForms(s, bs))
	case 117:
		return show(RangeControl(s, bs))
	case 118:
		return show(RangeCapturePerLoop(s, bs))
	case 119:
		return show(RangeInt(a, b))
	case 120:
		return show(CopyMake(a, s, bs))
	case 121:
		return show(CopyInto(a, s, bs))
	case 122:
		return show(BuildBox(a, s, bs))
	case 123:
		return show(MultiFields(a, s))
	case 124:
		// Assigned first: show(MinMax(...)) calls the original, whose
		// results go straight into show's ...any.
		m, u, i, n, r := MinMax(a, b, s)
		return show(m, u, i, n, r)
	case 125:
		return show(Results(a, s, bs))
	case 126:
		return show(Clears(a, s, bs))
	case 127:
		return show(AppendLits(a, s))
	case 128:
		return show(LitArgs(a, s))
	case 129:
		return show(PoolCap(a, s))
	case 130:
		// Assigned first, so that the twin runs (see case 124).
		v1, v2, n, sm, f := IndexStores(a, b, s)
		return show(v1, v2, n, sm, f)
	case 131:
		in, w, hi, lo := ClassCopy(a, s)
		return show(in, w, hi, lo)
	case 132:
		return show(Slices3(a, b, s, bs))
	}
	return fmt.Sprintf("no function %d", fn)
}

// show prints values with their Go syntax, so that types and exact
// values both count.
func show(vs ...any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprintf("%#v", v)
	}
	return strings.Join(parts, ", ")
}

// where returns the position in p.go of the innermost frame of the panic
// being recovered.
func where() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(1, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	panicking := false
	for {
		f, more := frames.Next()
		if f.Function == "runtime.gopanic" {
			panicking = true
		} else if base := filepath.Base(f.File); panicking && (base == "p.go" || base == "lits.go" || base == "imethod.go") {
			return fmt.Sprintf("%s:%d", base, f.Line)
		}
		if !more {
			return "?"
		}
	}
}
