#include "textflag.h"

// func asmG() uintptr
//
// The g of the calling goroutine, which arm64 keeps in a register.
TEXT ·asmG(SB), NOSPLIT, $0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
