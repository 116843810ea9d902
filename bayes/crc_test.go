package bayes

import "hash/crc32"

// castagnoli and svgdCastagnoli are the CRC-32C table with which the
// format tests forge the checksums of saved models: from hash/crc32, not
// from package binfmt, so that they check its CRCs independently.
var (
	castagnoli     = crc32.MakeTable(crc32.Castagnoli)
	svgdCastagnoli = castagnoli
)
