package benchdata

import "os"

// CatalogEnv names the environment variable that points benchmarks and
// tests at the generated catalog when it is not at its usual place beside
// the repository (a second checkout, a copy elsewhere).
const CatalogEnv = "LOGMATCH_GENERATED_CATALOG"

// CatalogPath is the generated catalog's path: the file CatalogEnv names
// when it is set, rel (the path beside the repository, relative to the
// package directory a test runs in) otherwise.
func CatalogPath(rel string) string {
	if p := os.Getenv(CatalogEnv); p != "" {
		return p
	}
	return rel
}
