package e2e

// The tests run a gocolic binary they build themselves, which go test's
// cache cannot see; importing the packages it is made of ties the cached
// results to their sources.
import _ "github.com/gocolic/gocolic/session"
