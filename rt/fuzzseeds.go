// This file lists a fuzz target's seeds as the target itself adds them:
// the worker binary started with WorkerEnv=seeds runs FuzzXxx up to its
// f.Fuzz call and writes every value its f.Add calls gave, computed or
// constant, as a corpus file, so that seeds made at run time
// (f.Add(encode(x)), f.Add(tc.in) over a table built by a function) are
// seeds too, where reading the source sees only constants.

package rt

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
)

// The runtime imports no package that gocolic instruments in place
// (strings, bytes, and what imports them, such as path/filepath): their
// rewrites import the runtime.

// SeedsMode is the value of WorkerEnv that makes a fuzz worker write its
// target's f.Add seeds into the directory SeedsDirEnv names, and exit.
const SeedsMode = "seeds"

// SeedsDirEnv names the directory a worker in SeedsMode writes to.
const SeedsDirEnv = "GOCOLIC_SEEDS_DIR"

// writeSeeds writes the seed corpus f (a *testing.F, its f.Add calls
// made) holds into dir, one file per entry in go test's corpus format,
// named seed-N. The testing package keeps the entries in an unexported
// field, read through reflection; a testing package without it is an
// error, and the caller then keeps the seeds it read from the source.
func writeSeeds(f reflect.Value, dir string) error {
	if f.Kind() == reflect.Pointer {
		f = f.Elem()
	}
	if f.Kind() != reflect.Struct {
		return fmt.Errorf("seeds: %s is not a testing.F", f.Type())
	}
	entries := f.FieldByName("corpus")
	if entries.Kind() != reflect.Slice {
		return errors.New("seeds: this testing package keeps no corpus field in testing.F")
	}
	for i := 0; i < entries.Len(); i++ {
		e := entries.Index(i)
		vals := e.FieldByName("Values")
		if vals.Kind() != reflect.Slice {
			return errors.New("seeds: a corpus entry has no Values field")
		}
		b := []byte("go test fuzz v1\n")
		for j := 0; j < vals.Len(); j++ {
			v := vals.Index(j)
			if v.Kind() == reflect.Interface {
				v = v.Elem()
			}
			line, err := seedLiteral(v)
			if err != nil {
				return fmt.Errorf("seeds: entry %d, value %d: %w", i, j, err)
			}
			b = append(b, line+"\n"...)
		}
		if err := os.WriteFile(dir+string(os.PathSeparator)+"seed-"+strconv.Itoa(i), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// seedLiteral writes v as go test's corpus format writes a value:
// type(literal), floats by their bits so that every NaN survives.
func seedLiteral(v reflect.Value) (string, error) {
	t := v.Type().String()
	switch v.Kind() {
	case reflect.String:
		return "string(" + strconv.Quote(v.String()) + ")", nil
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "[]byte(" + strconv.Quote(string(v.Bytes())) + ")", nil
		}
	case reflect.Bool:
		return "bool(" + strconv.FormatBool(v.Bool()) + ")", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return t + "(" + strconv.FormatInt(v.Int(), 10) + ")", nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t + "(" + strconv.FormatUint(v.Uint(), 10) + ")", nil
	case reflect.Float32:
		return fmt.Sprintf("math.Float32frombits(0x%x)", math.Float32bits(float32(v.Float()))), nil
	case reflect.Float64:
		return fmt.Sprintf("math.Float64frombits(0x%x)", math.Float64bits(v.Float())), nil
	}
	return "", fmt.Errorf("a value of type %s", t)
}
