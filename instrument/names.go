// This file names what the rewrite writes into generated code: the alias
// under which rewritten files import the runtime, the prefixes of the
// identifiers the rewrite declares, and every name of the runtime
// (package rt) that generated code refers to. Each runtime name is spelled
// once, here, as a constant rt<Name>; TestRuntimeNames checks that each
// is declared in rt, so that renaming a runtime function fails a test
// rather than the build of an instrumented package. The models of
// standard-library functions are named by a rule instead (models.go).

package instrument

// runtimeAlias is the name under which generated files import the runtime.
const runtimeAlias = "_gcl"

// The identifiers the rewrite declares all begin with genPrefix, which a
// Go program does not use; the twin of a function F is genPrefix+F.
const (
	genPrefix     = "_gcl_"     // a twin, of F: _gcl_F; a temporary (newTemp): _gcl_<kind><n>
	litTwinPrefix = "_gcl_l_"   // the twin of a function literal bound to a local variable v: _gcl_l_v
	shadowPrefix  = "_gcl_s_"   // the shadow of a variable v: _gcl_s_v
	argPrefix     = "_gcl_a"    // the i-th argument of a wrapper, forwarder or the entry's call: _gcl_a<i>
	paramPrefix   = "_gcl_p"    // the i-th V parameter of a twin: _gcl_p<i>
	resultPrefix  = "_gcl_r"    // the i-th result of a wrapper or adapter: _gcl_r<i>
	recvName      = "_gcl_recv" // the receiver of a wrapper, and of the method under test
	importPrefix  = "_gcl_imp"  // the n-th import of the entry file: _gcl_imp<n>
	candPrefix    = "_gcl_c"    // a candidate value of an interface input: _gcl_c<n>
	mapKeyPrefix  = "_gcl_k"    // a key of a map input: _gcl_k<n>
	mapValPrefix  = "_gcl_v"    // a value of a map input: _gcl_v<n>
	funName       = "_gcl_f"    // the function value a dynamic call's adapter calls
	fuzzT         = "_gcl_t"    // the *testing.T of a rewritten fuzz function
	fuzzIn        = "_gcl_in"   // the input of a rewritten fuzz function
	fuzzFn        = "_gcl_fz"   // the rewritten fuzz function
	ifaceRecv     = "_gcl_i"    // the receiver of an interface method's adapter
	forwardRecv   = "_gcl_r"    // the receiver parameter of a forwarder (call_xmethod.go)
	ptrOld        = "_gcl_p"    // an existing object a pointer input aliases
	ptrNew        = "_gcl_new"  // whether a pointer input is a new object
	gFuncName     = "_gclG"     // the assembly function of goroutine identities, apart from the _gcl_ names
	typeAlias     = "_gcl_T_"   // the package-level alias of a type named T that a local declaration shadows: _gcl_T_T
	typeImport    = "_gclP"     // the n-th package a rewritten file imports again to name its types: _gclP<n>, apart from the _gcl_ names
)

// The fields of rt.V, the pair of a concrete value and its shadow.
const (
	vConcrete = "C" // the concrete value
	vShadow   = "S" // the shadow, nil when the value is concrete
)

// rtRef returns the runtime's name as written in generated source text.
func rtRef(name string) string { return runtimeAlias + "." + name }

// Declared in rt/alias.go.
const (
	// InputObject records p as the object pointer input i made.
	rtInputObject = "InputObject"
	// InputPtr returns pointer input i, a Ref parameter, when its choice makes
	// it nil or an alias of an earlier input, or reports that the caller must
	// make a new object for it (then registered with InputObject before it is
	// filled).
	rtInputPtr = "InputPtr"
	// IsNil returns p == nil, with the shadow "the input that made p's object
	// is nil".
	rtIsNil = "IsNil"
	// NotNil returns p != nil, with the shadow of IsNil negated.
	rtNotNil = "NotNil"
	// PtrEq returns p == q for two pointers of one type.
	rtPtrEq = "PtrEq"
	// PtrNe returns p != q for two pointers of one type (PtrEq).
	rtPtrNe = "PtrNe"
)

// Declared in rt/append.go.
const (
	// Append returns append(s, xs...) for a slice of scalars, storing the
	// shadows of the new elements in the result's cells.
	rtAppend = "Append"
	// AppendBytes returns append(b, xs...) for a byte slice: the aggregate of
	// b followed by the bytes' terms.
	rtAppendBytes = "AppendBytes"
	// AppendBytesOf returns append(b, t...) for a byte slice b and a string or
	// byte slice t: the concatenation of their aggregates.
	rtAppendBytesOf = "AppendBytesOf"
	// AppendSlice returns append(s, t...): the cells of s's elements (when the
	// result has a new backing array) and of t's follow them.
	rtAppendSlice = "AppendSlice"
	// AppendValue returns append(s, x) for one value of any type: the old
	// elements' cells follow them when the array moved.
	rtAppendValue = "AppendValue"
	// Last returns the address of s's last element.
	rtLast = "Last"
	// rtPoolGet stands for (*sync.Pool).Get (call_pool.go).
	rtPoolGet = "PoolGet"
	// AppendString is Append for a slice of strings.
	rtAppendString = "AppendString"
	// BytesOf returns the byte-slice literal T{xs...} with the aggregate of
	// the bytes' terms.
	rtBytesOf = "BytesOf"
	// Copy performs copy(dst, src) for slices other than byte slices: the
	// cells of the copied elements follow them, and the count is the term
	// min(len(dst), len(src)) when a length is symbolic.
	rtCopy = "Copy"
	// CopyBytes performs copy(dst, src) into a byte slice dst that is x or a
	// slice of x's bytes, writing the copied bytes' terms into x's shadow.
	rtCopyBytes = "CopyBytes"
	// CopyBytesTo performs copy(dst, src) into a byte slice that is not a
	// shadowed variable, writing the copied bytes' terms into their cells.
	rtCopyBytesTo = "CopyBytesTo"
	// MakeBytes returns make(T, n) for a byte slice, whose aggregate's
	// length is n's term.
	rtMakeBytes = "MakeBytes"
	// MakeBytesCap returns make(T, n, c) for a byte slice, whose
	// aggregate's length is n's term and whose capacity's shadow is c's.
	rtMakeBytesCap = "MakeBytesCap"
	// SliceOf returns the slice literal S{xs...} of scalars, with the
	// elements' shadows in its cells (its length is a constant).
	rtSliceOf = "SliceOf"
	// SliceOfString is SliceOf for a slice of strings.
	rtSliceOfString = "SliceOfString"
)

// Declared in rt/concrete.go.
const (
	// CauseCall is a symbolic argument of a call that receives no shadows: a
	// function of a package that is not instrumented (unless the call is
	// modelled or opaque), a method of another package, a function value, an
	// interface method, a wrapper of an instrumented function called where its
	// twin cannot be, or a builtin (min, max, ...; append and copy on what
	// rt/append.go does not track).
	rtCauseCall = "CauseCall"
	// CauseConv is an explicit conversion of a symbolic value that the runtime
	// does not model: to a type it does not track (any, []rune, a struct) or
	// between tracked kinds it has no operator for (string(rune)).
	rtCauseConv = "CauseConv"
	// CauseAssign is a value assigned where the rewrite keeps no shadow.
	rtCauseAssign = "CauseAssign"
	// CauseIndex is an index or bound taken at its concrete value.
	rtCauseIndex = "CauseIndex"
	// Concrete returns v's concrete value for a use where its shadow is lost,
	// counting the loss under cause c at site when v is symbolic.
	rtConcrete = "Concrete"
)

// Declared in rt/dyn.go.
const (
	// Closure returns wrap(twin), the value of a function literal with
	// tracked parameters or results, and registers twin under it for Dyn.
	rtClosure = "Closure"
	// Dyn returns the function to call for a call of the function value f
	// whose twin has type T: f's twin, when f is a registered function or
	// a literal made by Closure and this goroutine tracks, else adapt(f),
	// which calls f with concrete arguments.
	rtDyn = "Dyn"
	// RegisterTwin records twin as the twin of the package-level function f.
	rtRegisterTwin = "RegisterTwin"
)

// Declared in rt/evaluator.go.
const (
	// EvalMain serves evaluation requests when the process was started as an
	// evaluator and never returns then; otherwise it returns at once.
	rtEvalMain = "EvalMain"
)

// Declared in rt/float.go.
const (
	// ConvFF returns the Go conversion To(a) between float types.
	rtConvFF = "ConvFF"
	// ConvFI returns the Go conversion To(a) of a float to an integer.
	rtConvFI = "ConvFI"
	// ConvIF returns the Go conversion To(a) of an integer to a float.
	rtConvIF = "ConvIF"
	// DecF returns x-1 and its shadow, for x-- on a shadowed float variable.
	rtDecF = "DecF"
	// FAdd returns a + b.
	rtFAdd = "FAdd"
	// FEq returns a == b.
	rtFEq = "FEq"
	// FGe returns a >= b.
	rtFGe = "FGe"
	// FGt returns a > b.
	rtFGt = "FGt"
	// FLe returns a <= b.
	rtFLe = "FLe"
	// FLt returns a < b.
	rtFLt = "FLt"
	// FMul returns a * b.
	rtFMul = "FMul"
	// FNe returns a != b (true when either is NaN).
	rtFNe = "FNe"
	// FNeg returns -a.
	rtFNeg = "FNeg"
	// FQuo returns a / b (no panic: division by zero gives an infinity or
	// NaN).
	rtFQuo = "FQuo"
	// FSub returns a - b.
	rtFSub = "FSub"
	// IncF returns x+1 and its shadow, for x++ on a shadowed float variable.
	rtIncF = "IncF"
	// InputFloat returns parameter i as a symbolic float.
	rtInputFloat = "InputFloat"
)

// Declared in rt/fuzz.go.
const (
	// FuzzRun stands in for f.Fuzz(concrete).
	rtFuzzRun = "FuzzRun"
	// Register records the description of a fuzz target (its Run is nil).
	rtRegister = "Register"
	// Report records the message of t.Error or t.Fatal, then calls it.
	rtReport = "Report"
	// Reportf records the message of t.Errorf or t.Fatalf, then calls it.
	rtReportf = "Reportf"
)

// Declared in rt/goroutine.go.
const (
	// UseG installs f, which must return the address of the calling
	// goroutine's runtime descriptor, to tell goroutines apart.
	rtUseG = "UseG"
)

// Declared in rt/iface.go.
const (
	// Assert records the test of the type assertion x.(T) at site, a branch,
	// and returns x for the assertion.
	rtAssert = "Assert"
	// CaseNil is the case nil of a type switch, a branch at site.
	rtCaseNil = "CaseNil"
	// CaseOf is the case type T of a type switch, a branch at site.
	rtCaseOf = "CaseOf"
	// IfaceIsNil returns x == nil for an interface value x, with the shadow of
	// its choice when the runtime built it, and, for a nil x, "some interface
	// input is nil" (see InputIfaceNil).
	rtIfaceIsNil = "IfaceIsNil"
	// IfaceNotNil returns x != nil with the shadow of IfaceIsNil.
	rtIfaceNotNil = "IfaceNotNil"
	// InputIface returns *p as a value of the interface type I, as chosen by
	// parameter i, the interface's choice among cands, and remembers its
	// choice.
	rtInputIface = "InputIface"
	// InputIfaceNil records that parameter i, an interface's choice among n
	// candidates, made it nil.
	rtInputIfaceNil = "InputIfaceNil"
	// PassIface hands the box of x, an interface the runtime built around a
	// value that is not a pointer, to the method x's call runs: a method of
	// such a type has a value receiver, which takes the shadows (Take) as from
	// a struct argument.
	rtPassIface = "PassIface"
	// TypeFor returns the type T as an element of Types.
	rtTypeFor = "TypeFor"
	// Types lists the candidate dynamic types of an interface input, in the
	// order of their choice values.
	rtTypes = "Types"
	// TypeSwitch records the tests a type switch on x makes, in the order Go
	// makes them — each case type its own branch, up to the first that matches
	// — and returns x for the switch.
	rtTypeSwitch = "TypeSwitch"
	// Unbox installs at p, the variable a type switch case or a type assertion
	// just bound to a value that is not a pointer, the shadows of the box the
	// interface holds, when the runtime built that interface.
	rtUnbox = "Unbox"
	// Unboxed is Unbox in a condition: it returns true.
	rtUnboxed = "Unboxed"
)

// Declared in rt/imethod.go.
const (
	// Any is any under a name that the rewritten code can write without a
	// declaration of the target shadowing it: the receivers of the adapters
	// and fallbacks of interface method calls have this type.
	rtAny = "Any"
	// IMethod returns the function to call for a call x.M(a) of the method
	// name (its types.Id) of the interface value x, whose receiver-erased twin
	// has type F: the adapter registered for x's dynamic type, when this
	// goroutine tracks and the adapter has type F; else fallback, which calls
	// the method through the interface with concrete arguments (and panics as
	// Go does for a nil x).
	rtIMethod = "IMethod"
	// RegisterMethod records the adapters of the twin of the method name (its
	// types.Id) declared on the non-generic named type T: onValue for a
	// dynamic type T, nil when the method has a pointer receiver (a T does not
	// have it then), and onPtr for a dynamic type *T. Each adapter has the
	// type func(any, <twin params>) (<twin results>), which depends only on
	// the method's signature, so that a call site, which knows the interface
	// but not the dynamic type, can name it.
	rtRegisterMethod = "RegisterMethod"
)

// Declared in rt/clear.go.
const (
	// ClearBytes performs clear(dst) where dst is the shadowed byte-slice
	// variable x or a slice of it: the cleared bytes of x's aggregate
	// become constant zeros.
	rtClearBytes = "ClearBytes"
	// ClearBytesTo performs clear(b) for a byte slice that is not a
	// shadowed variable: its bytes get constant cells.
	rtClearBytesTo = "ClearBytesTo"
	// ClearMap performs clear(m) on a map and drops its log.
	rtClearMap = "ClearMap"
	// ClearOf performs clear(x) for x of a type parameter, dropping the
	// shadows of what it clears.
	rtClearOf = "ClearOf"
	// ClearSlice performs clear(s) for a slice whose elements are not
	// bytes: the cells of the cleared elements are dropped.
	rtClearSlice = "ClearSlice"
)

// Declared in rt/map.go.
const (
	// LenMap returns len(m) with its shadow: the length term of its log.
	rtLenMap = "LenMap"
	// MapApply performs m[k] = op(m[k], v), for m[k] op= v and m[k]++: the map
	// and the key are evaluated once, as the original statement does.
	rtMapApply = "MapApply"
	// MapDelete performs delete(m, k) and logs the delete.
	rtMapDelete = "MapDelete"
	// MapIndex returns m[k] with its shadow, site being where a stale log or a
	// key split past its bound is counted.
	rtMapIndex = "MapIndex"
	// MapIndexOK returns v, ok := m[k] with their shadows, in the form of an
	// assignment v, ok, sv, sok = MapIndexOK(...).
	rtMapIndexOK = "MapIndexOK"
	// MapInput adds entry i of a map input: the key and value inputs, present
	// only when the length input n is more than i.
	rtMapInput = "MapInput"
	// MapLit returns m after storing kvs into it in order, for a map literal
	// map[K]E{k1: v1, ...} whose keys or values may be symbolic (m is the
	// empty map the literal makes).
	rtMapLit = "MapLit"
	// MapStore performs m[k] = v and logs the write.
	rtMapStore = "MapStore"
	// MkKV pairs a key and a value of a map literal.
	rtMkKV = "MkKV"
)

// Declared in rt/copyindex.go.
const (
	// CopyIndex follows dst = s[i] for an element type with scalar fields:
	// at a symbolic index each field of the copy is a case split.
	rtCopyIndex = "CopyIndex"
)

// Declared in rt/mem.go.
const (
	// Apply performs *p = op(*p, y), for x op= y and x++ on a location in
	// memory: the address is evaluated once, as the original statement does.
	rtApply = "Apply"
	// ApplyIndex performs s[i] = op(s[i], y), for s[i] op= y and s[i]++ at an
	// index that may be symbolic.
	rtApplyIndex = "ApplyIndex"
	// ApplyString performs *p = op(*p, y) for a string location.
	rtApplyString = "ApplyString"
	// CopyMem copies the shadows of *src to *dst, after a copy of the value
	// itself (q = p for a struct or an array).
	rtCopyMem = "CopyMem"
	// Load returns *p with its shadow; site is where a stale shadow is counted
	// (CauseStale).
	rtLoad = "Load"
	// LoadByteSlice returns the byte slice *p with its shadow.
	rtLoadByteSlice = "LoadByteSlice"
	// LoadIndex returns s[i] with its shadow, recording the bounds check at
	// site.
	rtLoadIndex = "LoadIndex"
	// LoadIndexBytes is LoadIndexString for a slice of byte slices.
	rtLoadIndexBytes = "LoadIndexBytes"
	// LoadIndexString returns s[i] with its shadow for a slice of strings,
	// recording the bounds check at site, as LoadIndex does for scalars; at a
	// symbolic index the shadow is a case split over the elements' aggregates,
	// component by component.
	rtLoadIndexString = "LoadIndexString"
	// LoadString returns the string *p with its shadow; site is where a stale
	// shadow is counted.
	rtLoadString = "LoadString"
	// Store performs *p = v and records v's shadow at p.
	rtStore = "Store"
	// StoreByteSlice performs *p = v and records v's shadow at p.
	rtStoreByteSlice = "StoreByteSlice"
	// StoreIndex performs s[i] = v on a slice of scalars, recording the
	// bounds check at site; at a symbolic index every element's cell takes
	// the store's case split.
	rtStoreIndex = "StoreIndex"
	// StoreString performs *p = v and records v's shadow at p.
	rtStoreString = "StoreString"
)

// Declared in rt/opaque.go.
const (
	// Func1 registers a function of one argument for evaluation.
	rtFunc1 = "Func1"
	// Func2 registers a function of two arguments for evaluation.
	rtFunc2 = "Func2"
	// Func3 registers a function of three arguments for evaluation.
	rtFunc3 = "Func3"
	// Opaque1 calls f(a) and, with opaque terms on, shadows the result with
	// the term of function fn (a sym.FuncID) when a is symbolic.
	rtOpaque1 = "Opaque1"
	// Opaque2 is Opaque1 for functions of two arguments.
	rtOpaque2 = "Opaque2"
	// Opaque3 is Opaque1 for functions of three arguments.
	rtOpaque3 = "Opaque3"
)

// Declared in rt/ops.go.
const (
	// Add returns a + b.
	rtAdd = "Add"
	rtMin = "Min"
	rtMax = "Max"
	// And returns a & b.
	rtAnd = "And"
	// AndNot returns a &^ b.
	rtAndNot = "AndNot"
	// Conv returns the Go conversion To(a) between integer types.
	rtConv = "Conv"
	// ConvBool returns the Go conversion To(a) between boolean types.
	rtConvBool = "ConvBool"
	// Cpl returns ^a.
	rtCpl = "Cpl"
	// Eq returns a == b.
	rtEq = "Eq"
	// EqBool returns a == b on booleans.
	rtEqBool = "EqBool"
	// Ge returns a >= b.
	rtGe = "Ge"
	// Gt returns a > b.
	rtGt = "Gt"
	// Le returns a <= b.
	rtLe = "Le"
	// Lt returns a < b.
	rtLt = "Lt"
	// Mul returns a * b.
	rtMul = "Mul"
	// Ne returns a != b.
	rtNe = "Ne"
	// NeBool returns a != b on booleans.
	rtNeBool = "NeBool"
	// Neg returns -a.
	rtNeg = "Neg"
	// Not returns !a.
	rtNot = "Not"
	// Or returns a | b.
	rtOr = "Or"
	// Quo returns a / b; site is the implicit division-by-zero check.
	rtQuo = "Quo"
	// Rem returns a % b; site is the implicit division-by-zero check.
	rtRem = "Rem"
	// Shl returns a << n; site is the implicit negative-count check.
	rtShl = "Shl"
	// Shr returns a >> n (arithmetic for signed a); site is the implicit
	// negative-count check.
	rtShr = "Shr"
	// Sub returns a - b.
	rtSub = "Sub"
	// Xor returns a ^ b.
	rtXor = "Xor"
)

// Declared in rt/ordered.go.
const (
	// AppendOrd is Append for a slice of an ordered type parameter.
	rtAppendOrd = "AppendOrd"
	// ApplyOrd performs *p = op(*p, y) for a location of an ordered type
	// parameter.
	rtApplyOrd = "ApplyOrd"
	// ConvN returns the Go conversion To(a) between integer and float types,
	// for conversions where either side is an ordered type parameter: the term
	// is that of Conv, ConvFF, ConvIF or ConvFI, by the kinds of To and From
	// at run time.
	rtConvN = "ConvN"
	// DecO returns x-1 and its shadow, for x-- on a shadowed variable.
	rtDecO = "DecO"
	// IncO returns x+1 and its shadow, for x++ on a shadowed variable.
	rtIncO = "IncO"
	// LoadIndexOrd returns s[i] with its shadow, as LoadIndex and
	// LoadIndexString do for T's kind: the slice is read as a slice of the
	// unsigned integers of T's size, or of strings, which have the same
	// memory, the same cells and the same length shadow.
	rtLoadIndexOrd = "LoadIndexOrd"
	// LoadOrd returns *p with its shadow, for a location of an ordered type
	// parameter: the cell is the one a value of T's kind has (Load's bits or
	// LoadString's string), so generic and non-generic code share it.
	rtLoadOrd = "LoadOrd"
	// OAdd returns a + b: an integer or float sum, or a concatenation.
	rtOAdd = "OAdd"
	// OEq returns a == b: IEEE equality for floats (NaN is unequal to itself,
	// -0 equals +0), byte-wise equality for strings.
	rtOEq = "OEq"
	// OGe returns a >= b.
	rtOGe = "OGe"
	// OGt returns a > b.
	rtOGt = "OGt"
	// OLe returns a <= b.
	rtOLe = "OLe"
	// OLt returns a < b.
	rtOLt = "OLt"
	// OMul returns a * b.
	rtOMul = "OMul"
	// ONe returns a != b.
	rtONe = "ONe"
	// ONeg returns -a.
	rtONeg = "ONeg"
	// OQuo returns a / b; site is the implicit division-by-zero check of an
	// integer T (a float division does not panic, and records nothing).
	rtOQuo = "OQuo"
	// OSub returns a - b.
	rtOSub = "OSub"
	// SliceOfOrd is SliceOf for a slice of an ordered type parameter.
	rtSliceOfOrd = "SliceOfOrd"
	// StoreOrd performs *p = v and records v's shadow at p.
	rtStoreOrd = "StoreOrd"
)

// Declared in rt/slice.go.
const (
	// LenSlice returns len(s) with its shadow; site is where a stale length
	// shadow is counted.
	rtLenSlice = "LenSlice"
	// CapSlice returns cap(s) with the shadow make recorded for it.
	rtCapSlice = "CapSlice"
	// MakeSlice returns make(S, n), and records n's shadow as the shadow of
	// the slice's length.
	rtMakeSlice = "MakeSlice"
	// rtMakeSliceCap is rtMakeSlice with a capacity.
	rtMakeSliceCap = "MakeSliceCap"
	// Pass returns v, the value of *p, and hands p's shadows to the function
	// about to be called with it: a struct or array is copied into the
	// callee's parameter, so its cells must follow it there (Take).
	rtPass = "Pass"
	// Take installs, at the parameter p, the shadows of the argument its
	// caller handed over with Pass: the oldest one of the same size.
	rtTake = "Take"
	// PassResult returns v, the value of *p, as result i, and hands p's
	// shadows to the caller's place for it (TakeResult).
	rtPassResult = "PassResult"
	// NoResult returns v as result i, which hands no shadows over.
	rtNoResult = "NoResult"
	// TakeResult installs at p the shadows of result i of the call that
	// just returned (PassResult).
	rtTakeResult = "TakeResult"
	// Took returns a new place holding result i of the call that just
	// returned, with the shadows its callee handed over.
	rtTook = "Took"
	// DropResult returns result i of the call that just returned, and counts
	// the shadows its callee handed over as dropped.
	rtDropResult = "DropResult"
)

// Declared in rt/state.go.
const (
	// Br is an explicit branch: the condition of an if, for or case, or one
	// operand of && and ||.
	rtBr = "Br"
	// BrOwn is Br in a function that asked Owner once at its top.
	rtBrOwn = "BrOwn"
	// Owner reports whether the calling goroutine owns the symbolic state.
	rtOwner = "Owner"
	// Enter marks a function's entry in a traced execution; Leave,
	// deferred, its return (Config.Markers).
	rtEnter = "Enter"
	rtLeave = "Leave"
)

// Declared in rt/str.go.
const (
	// BytesOfString returns the conversion To(s) of a string to a byte slice.
	rtBytesOfString = "BytesOfString"
	// Concat returns a + b on strings.
	rtConcat = "Concat"
	// ConvBytes returns the conversion To(b) between byte-slice types.
	rtConvBytes = "ConvBytes"
	// ConvString returns the conversion To(s) between string types.
	rtConvString = "ConvString"
	// EqString returns a == b.
	rtEqString = "EqString"
	// GeString returns a >= b.
	rtGeString = "GeString"
	// GtString returns a > b.
	rtGtString = "GtString"
	// IndexBytes returns b[i]; site is the implicit bounds check.
	rtIndexBytes = "IndexBytes"
	// IndexString returns s[i]; site is the implicit bounds check.
	rtIndexString = "IndexString"
	// LenBytes returns len(b).
	rtLenBytes = "LenBytes"
	// LenString returns len(s).
	rtLenString = "LenString"
	// LeString returns a <= b.
	rtLeString = "LeString"
	// LtString returns a < b.
	rtLtString = "LtString"
	// NeString returns a != b.
	rtNeString = "NeString"
	// SliceBytes returns b[lo:hi]; site is the implicit bounds check.
	rtSliceBytes = "SliceBytes"
	// SliceBytes3 returns b[lo:hi:max]; site is the implicit bounds check.
	rtSliceBytes3 = "SliceBytes3"
	// SliceBytesFrom returns b[lo:].
	rtSliceBytesFrom = "SliceBytesFrom"
	// SliceString returns s[lo:hi]; site is the implicit bounds check.
	rtSliceString = "SliceString"
	// SliceStringFrom returns s[lo:].
	rtSliceStringFrom = "SliceStringFrom"
	// StoreBytes performs (*p)[i] = x and updates the shadow *sp of the slice
	// variable; site is the implicit bounds check.
	rtStoreBytes = "StoreBytes"
	// UnsafeString returns unsafe.String(unsafe.SliceData(b), n) with the
	// terms of b's first n bytes.
	rtUnsafeString = "UnsafeString"
	// UnsafeBytes returns unsafe.Slice(unsafe.StringData(s), n) with the
	// terms of s's first n bytes.
	rtUnsafeBytes = "UnsafeBytes"
	// StoreByteAt performs b[i] = x on a byte slice that is not a shadowed
	// variable, writing x's term into the byte's cell.
	rtStoreByteAt = "StoreByteAt"
	// StringOfBytes returns the conversion To(b) of a byte slice to a string.
	rtStringOfBytes = "StringOfBytes"
	// StringOfRune returns the conversion To(r) of an integer to a
	// string: r's UTF-8 encoding.
	rtStringOfRune = "StringOfRune"
)

// Declared in rt/target.go.
const (
	// AddReset registers a function that clears the shadows of an instrumented
	// package's variables before each execution, for packages other than the
	// one that registers the Entry.
	rtAddReset = "AddReset"
	// Entry is the function under test as the generated entry file registers
	// it.
	rtEntry = "Entry"
	// Input is the concrete assignment of one execution.
	rtInput = "Input"
	// InputBool returns parameter i as a symbolic boolean.
	rtInputBool = "InputBool"
	// InputBytes returns parameter i as a symbolic byte slice.
	rtInputBytes = "InputBytes"
	// InputInt returns parameter i as a symbolic integer.
	rtInputInt = "InputInt"
	// InputLen returns parameter i, a bounded length or choice (Param.Max), as
	// an int.
	rtInputLen = "InputLen"
	// InputSlice returns a slice whose length is parameter i (InputLen), with
	// that variable as the shadow of its length.
	rtInputSlice = "InputSlice"
	// InputString returns parameter i as a symbolic string.
	rtInputString = "InputString"
	// Param describes one parameter of the function under test.
	rtParam = "Param"
	// one boolean variable
	rtParamBool = "ParamBool"
	// as ParamString
	rtParamBytes = "ParamBytes"
	// float32 or float64: one variable of its IEEE-754 bits
	rtParamFloat = "ParamFloat"
	// any integer type: one variable
	rtParamInt = "ParamInt"
	// length variable plus MaxLen byte variables
	rtParamString = "ParamString"
)

// Declared in rt/value.go.
const (
	// Dec returns x-1 and its shadow, for x-- on a shadowed variable.
	rtDec = "Dec"
	// Expr is the type of shadows, named here so that instrumented code needs
	// only this package's import.
	rtExpr = "Expr"
	// Inc returns x+1 and its shadow, for x++ on a shadowed variable.
	rtInc = "Inc"
	// Mk pairs a concrete value with its shadow.
	rtMk = "Mk"
	// Ret pairs the concrete result of an instrumented call with its shadow
	// result, for calls used inside expressions: Ret(f(args)).
	rtRet = "Ret"
	// Unpack splits v, for assignments of the form x, sx = Unpack(v).
	rtUnpack = "Unpack"
	// Unpack2 splits two values at once, for parallel assignments such as a, b
	// = b, a: both right-hand sides are evaluated before either is stored.
	rtUnpack2 = "Unpack2"
	// Unpack3 is Unpack2 for three values.
	rtUnpack3 = "Unpack3"
	// V is a value with its symbolic shadow.
	rtV = "V"
)

// Declared in rt/worker.go.
const (
	// Main serves the target when the process was started as a worker, or
	// evaluation requests when it was started as an evaluator (EvalMain), and
	// never returns then; otherwise it returns at once.
	rtMain = "Main"
)

// rtUnpackN names rt.Unpack2 and rt.Unpack3 by their number of values.
var rtUnpackN = [...]string{2: rtUnpack2, 3: rtUnpack3}

// rtOpaqueN and rtFuncN name the runtime's opaque calls and their
// registrations by the number of arguments.
var (
	rtOpaqueN = [...]string{1: rtOpaque1, 2: rtOpaque2, 3: rtOpaque3}
	rtFuncN   = [...]string{1: rtFunc1, 2: rtFunc2, 3: rtFunc3}
)

// Declared in rt/range.go.
const (
	// IterBytes starts a range loop over b, whose loop condition is site; it
	// returns the cursor, the zero key, value and value shadow that the
	// loop's init declares, and the start of the loop's own index.
	rtIterBytes = "IterBytes"
	// PlainBytes starts the concrete copy of a range loop over a byte
	// slice without a shadow: it returns what IterBytes returns, with a
	// cursor that reads elements alone.
	rtPlainBytes = "PlainBytes"
	// IterString starts a range loop over s: loop condition, ASCII test and
	// UTF-8 sequence test are sites.
	rtIterString = "IterString"
	// IterSlice starts a range loop over s, recording the loop condition at
	// site against the shadow of s's length.
	rtIterSlice = "IterSlice"
	// IterInt starts a range loop over the integer n.
	rtIterInt = "IterInt"
	// SliceAt returns the current index and element of a slice of scalars,
	// with the element's shadow.
	rtSliceAt = "SliceAt"
	// SliceAtString is SliceAt for a slice of strings.
	rtSliceAtString = "SliceAtString"
	// SliceAtBytes is SliceAt for a slice of byte slices.
	rtSliceAtBytes = "SliceAtBytes"
	// SliceAtOrd is SliceAt for a slice of an ordered type parameter.
	rtSliceAtOrd = "SliceAtOrd"
	// SliceAtOf is SliceAt for elements the shadow memory does not hold as
	// values: a plain copy, whose cells the body installs with Take.
	rtSliceAtOf = "SliceAtOf"
)

// The methods of the runtime's range cursors (rt.BytesIter, rt.StringIter,
// rt.SliceIter, rt.IntIter).
const (
	iterNext = "Next" // moves to the next element; the loop condition
	iterAt   = "At"   // index, element and shadow (bytes and strings)
	iterKey  = "Key"  // the index alone (slices and integers)
	// More is the loop condition of a cursor whose loop steps an index of
	// its own (rt.BytesIter), given the index; its At takes the index.
	iterMore = "More"
)
