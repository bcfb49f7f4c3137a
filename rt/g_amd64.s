#include "textflag.h"

// func asmG() uintptr
//
// The g of the calling goroutine, from the thread-local slot where the
// runtime keeps it (the sequence of the runtime's get_tls and g macros).
TEXT ·asmG(SB), NOSPLIT, $0-8
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET
