//go:build !unix

package coordinator

import "time"

// processCPU is not measured on this system: zero.
func processCPU() time.Duration { return 0 }
