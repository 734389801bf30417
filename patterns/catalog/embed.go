package catalog

import (
	"embed"
	"io/fs"
)

// files is the embedded catalog. embed needs a package-level variable; it is
// read-only and reached only through FS.
//
//go:embed *.jsonl
var files embed.FS

// FS returns the embedded catalog files, named by their base names
// ("sglang.jsonl"), for patterns.LoadFS.
func FS() fs.FS { return files }
