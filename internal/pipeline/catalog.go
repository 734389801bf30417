package pipeline

import (
	"log/slog"

	"github.com/logmatch/logmatch/internal/catalog"
	"github.com/logmatch/logmatch/internal/config"
	"github.com/logmatch/logmatch/internal/factcache"
)

// openFactCache opens the state directory's fact cache; nil, logged, when
// it cannot (the load is then slower, never different).
func openFactCache(stateDir string, log *slog.Logger) *factcache.Dir {
	d, err := catalog.OpenFactCache(stateDir)
	if err != nil {
		log.Info("catalog cache not used", "err", err)
		return nil
	}
	return d
}

// catalog is what cfg says to load, with the pipeline's fact cache.
func (p *Pipeline) catalog(cfg *config.Config) catalog.Spec {
	return catalog.Spec{Paths: cfg.Catalogs, NoDefault: cfg.NoDefaultCatalog, Cache: p.facts,
		OnCacheError: func(err error) { p.log.Warn("catalog cache", "err", err) }}
}

// testHookCatalogRead, when set, runs in New right after the catalog
// files are read (a test saves a catalog there).
var testHookCatalogRead func()
