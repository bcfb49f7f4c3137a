// Package magic identifies file formats from their leading 32-bit magic
// number. It shows branches on exact 32-bit constants: a symbolic engine
// reads each constant off the comparison, while random mutation almost never
// produces it by chance.
package magic

// Identify names the file format whose first four bytes, read big-endian,
// are magic. For formats that store a version right after the magic number,
// version holds it (for Java class files: the major version).
func Identify(magic uint32, version uint16) string {
	switch magic {
	case 0x7F454C46: // "\x7fELF"
		return "elf"
	case 0x89504E47: // "\x89PNG"
		return "png"
	case 0x25504446: // "%PDF"
		return "pdf"
	case 0x504B0304: // "PK\x03\x04"
		return "zip"
	case 0xFEEDFACE, 0xFEEDFACF:
		return "mach-o"
	case 0xCAFEBABE:
		return classOrFat(version)
	}
	if magic>>16 == 0x1F8B {
		return gzipKind(magic)
	}
	if magic>>8 == 0x425A68 { // "BZh"
		level := magic & 0xFF
		if level < '1' || level > '9' {
			return "bzip2 (bad level)"
		}
		return "bzip2"
	}
	return "unknown"
}

// classOrFat tells a Java class file from a Mach-O fat binary: both start
// with 0xCAFEBABE. Fat binaries store a small architecture count where class
// files store their version.
func classOrFat(version uint16) string {
	if version < 45 {
		return "mach-o fat"
	}
	if version <= 69 {
		return "java class"
	}
	if version == 0xCAFE {
		// planted: magic value reached
		panic("magic value reached: class file version 0xCAFE")
	}
	return "java class (newer than supported)"
}

// gzipKind looks at the compression method and flag bytes of a gzip header
// packed into the low 16 bits of magic.
func gzipKind(magic uint32) string {
	method := byte(magic >> 8)
	flags := byte(magic)
	if method != 8 {
		return "gzip (unknown method)"
	}
	if flags&0xE0 != 0 {
		// planted: gzip reserved flag bits set
		panic("magic: gzip reserved flag bits set")
	}
	if flags&0x08 != 0 {
		return "gzip (named)"
	}
	return "gzip"
}
