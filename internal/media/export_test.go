package media

import (
	"encoding/binary"
	"hash/crc32"
)

// DeclaredPNG is a copy of the PNG p whose header declares w x h (with a
// correct checksum, so a decoder believes it) while the pixels stay p's:
// the shape of a decompression bomb.
func DeclaredPNG(p []byte, w, h uint32) []byte {
	b := append([]byte(nil), p...)
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}
