// Package tlv is a target of the search-strategy benchmark
// (bench/strategies): a decoder of a binary telemetry packet. A packet is
// a fixed header (sync word, version, flags, sequence number, payload
// length), a payload of type-length-value records, some of them nested
// containers, and a trailer with a Fletcher-16 checksum (sums modulo 256)
// over header and payload. Records are checked by type (readings with
// units and ranges, text labels, timestamps that must increase, a
// key-value block, position fixes, a sequence window) and the packet as a
// whole is checked for consistency. Its deep goals need a packet whose
// checksum matches and whose records agree with each other.
package tlv

const (
	sync0      = 0xA5
	sync1      = 0x5A
	headerLen  = 6
	trailerLen = 2
	maxDepth   = 3
	maxRecords = 12
)

// Record types.
const (
	tPad       = 0x00
	tReading   = 0x01
	tLabel     = 0x02
	tTimestamp = 0x03
	tContainer = 0x04
	tKV        = 0x05
	tAlarm     = 0x06
	tGeo       = 0x07
	tWindow    = 0x08
	tEnd       = 0x7F
)

// Header flags.
const (
	fChecksum   = 0x01 // the trailer holds a checksum
	fCompressed = 0x02 // runs of a repeated byte are encoded
	fAck        = 0x04 // the sender wants an acknowledgement
	fTest       = 0x80 // a test packet: records may be out of range
)

type decodeError struct {
	off int
	msg string
}

func (e *decodeError) Error() string { return "tlv: " + e.msg }

type header struct {
	version byte
	flags   byte
	seq     uint16
	length  int
}

// geo is a position fix in fixed point: microdegrees, altitude in
// decimetres.
type geo struct {
	lat, lon int32
	alt      int16
	quality  byte
}

type reading struct {
	sensor byte
	unit   byte
	value  int16
}

type packet struct {
	hdr       header
	readings  []reading
	labels    []string
	stamps    []uint32
	kv        map[byte]uint16
	alarms    int
	fixes     []geo
	window    [2]uint16
	hasWindow bool
	records   int
	depthSeen int
	ended     bool
}

func be16(b []byte) uint16 { return uint16(b[0])<<8 | uint16(b[1]) }

func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// fletcher16 is Fletcher's checksum with both sums modulo 256 (the
// variant of small sensors, which cannot afford the division).
func fletcher16(b []byte) uint16 {
	var s1, s2 uint8
	for _, c := range b {
		s1 += c
		s2 += s1
	}
	return uint16(s2)<<8 | uint16(s1)
}

// parseHeader fills h from the first bytes of b.
func parseHeader(b []byte, h *header) error {
	if len(b) < headerLen {
		return &decodeError{0, "short header"}
	}
	if b[0] != sync0 || b[1] != sync1 {
		return &decodeError{0, "no sync word"}
	}
	h.version = b[2] >> 5
	h.length = int(b[2]&0x1f)<<2 | int(b[3]>>6)
	h.flags = b[3] & 0x3f
	if b[3]&0x20 != 0 {
		h.flags |= fTest
		h.flags &^= 0x20
	}
	h.seq = be16(b[4:6])
	switch h.version {
	case 1:
		if h.flags&fCompressed != 0 {
			return &decodeError{2, "version 1 has no compression"}
		}
	case 2:
	default:
		return &decodeError{2, "unknown version"}
	}
	if h.seq == 0 && h.flags&fAck != 0 {
		return &decodeError{4, "sequence 0 cannot be acknowledged"}
	}
	return nil
}

// expand undoes the run-length encoding of compressed payloads: 0xFF n c
// stands for n copies of c.
func expand(b []byte) ([]byte, error) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0xFF {
			out = append(out, b[i])
			continue
		}
		if i+2 >= len(b) {
			return nil, &decodeError{i, "truncated run"}
		}
		n, c := int(b[i+1]), b[i+2]
		if n < 3 || n > 32 {
			return nil, &decodeError{i, "bad run length"}
		}
		for k := 0; k < n; k++ {
			out = append(out, c)
		}
		i += 2
	}
	if len(out) > 96 {
		return nil, &decodeError{0, "expanded payload too long"}
	}
	return out, nil
}

func (p *packet) reading(v []byte, off int) error {
	if len(v) != 4 {
		return &decodeError{off, "reading has 4 bytes"}
	}
	r := reading{sensor: v[0], unit: v[1], value: int16(be16(v[2:4]))}
	if p.hdr.flags&fTest == 0 {
		switch r.unit {
		case 'C':
			if r.value < -400 || r.value > 1250 {
				return &decodeError{off, "temperature out of range"}
			}
		case 'P':
			if r.value < 300 || r.value > 1100 {
				return &decodeError{off, "pressure out of range"}
			}
		case 'H':
			if r.value < 0 || r.value > 100 {
				return &decodeError{off, "humidity out of range"}
			}
		default:
			return &decodeError{off, "unknown unit"}
		}
	}
	for _, o := range p.readings {
		if o.sensor == r.sensor && o.unit != r.unit {
			return &decodeError{off, "sensor changed unit"}
		}
	}
	p.readings = append(p.readings, r)
	return nil
}

func (p *packet) label(v []byte, off int) error {
	if len(v) == 0 || len(v) > 12 {
		return &decodeError{off, "bad label length"}
	}
	for i, c := range v {
		if c < 0x20 || c > 0x7e {
			return &decodeError{off + i, "label is not printable"}
		}
	}
	p.labels = append(p.labels, string(v))
	return nil
}

func (p *packet) timestamp(v []byte, off int) error {
	if len(v) != 4 {
		return &decodeError{off, "timestamp has 4 bytes"}
	}
	t := be32(v)
	if t < 1_000_000_000 {
		return &decodeError{off, "timestamp before 2001"}
	}
	if n := len(p.stamps); n > 0 && t <= p.stamps[n-1] {
		return &decodeError{off, "timestamps must increase"}
	}
	p.stamps = append(p.stamps, t)
	return nil
}

// geoFix decodes a position: latitude and longitude as big-endian int32
// microdegrees, altitude as int16 decimetres, one quality byte.
func (p *packet) geoFix(v []byte, off int) error {
	if len(v) != 11 {
		return &decodeError{off, "position has 11 bytes"}
	}
	g := geo{
		lat:     int32(be32(v[0:4])),
		lon:     int32(be32(v[4:8])),
		alt:     int16(be16(v[8:10])),
		quality: v[10],
	}
	if g.lat < -90_000_000 || g.lat > 90_000_000 {
		return &decodeError{off, "latitude out of range"}
	}
	if g.lon < -180_000_000 || g.lon > 180_000_000 {
		return &decodeError{off, "longitude out of range"}
	}
	if g.alt < -4000 {
		return &decodeError{off + 8, "altitude below the sea floor"}
	}
	switch {
	case g.quality == 0:
		return &decodeError{off + 10, "no fix"}
	case g.quality > 5:
		return &decodeError{off + 10, "unknown fix quality"}
	case g.quality == 1 && g.alt != 0:
		return &decodeError{off + 10, "a 2D fix has no altitude"}
	}
	if n := len(p.fixes); n > 0 {
		prev := p.fixes[n-1]
		dlat, dlon := g.lat-prev.lat, g.lon-prev.lon
		if dlat < 0 {
			dlat = -dlat
		}
		if dlon < 0 {
			dlon = -dlon
		}
		if dlat > 1_000_000 || dlon > 1_000_000 {
			return &decodeError{off, "position jumped"}
		}
	}
	p.fixes = append(p.fixes, g)
	return nil
}

// seqWindow reads the acknowledgement window: the oldest and newest
// sequence numbers the sender still holds, which may wrap around.
func (p *packet) seqWindow(v []byte, off int) error {
	if len(v) != 4 {
		return &decodeError{off, "window has 4 bytes"}
	}
	if p.hasWindow {
		return &decodeError{off, "second window"}
	}
	lo, hi := be16(v[0:2]), be16(v[2:4])
	if hi-lo > 64 {
		return &decodeError{off, "window too wide"}
	}
	if seq := p.hdr.seq; seq-lo > hi-lo {
		return &decodeError{off, "sequence outside its own window"}
	}
	p.window = [2]uint16{lo, hi}
	p.hasWindow = true
	return nil
}

func (p *packet) keyValues(v []byte, off int) error {
	if len(v)%3 != 0 {
		return &decodeError{off, "key-value block of triples"}
	}
	if p.kv == nil {
		p.kv = map[byte]uint16{}
	}
	for i := 0; i < len(v); i += 3 {
		k := v[i]
		if k == 0 {
			return &decodeError{off + i, "key 0 is reserved"}
		}
		if _, dup := p.kv[k]; dup {
			return &decodeError{off + i, "duplicate key"}
		}
		p.kv[k] = be16(v[i+1 : i+3])
	}
	return nil
}

// decodeRecords decodes the TLV records of b at nesting depth.
func (p *packet) decodeRecords(b []byte, base, depth int) error {
	if depth > p.depthSeen {
		p.depthSeen = depth
	}
	for i := 0; i < len(b); {
		if p.ended {
			return &decodeError{base + i, "record after end"}
		}
		t := b[i]
		if t == tPad {
			i++
			continue
		}
		if i+2 > len(b) {
			return &decodeError{base + i, "truncated record header"}
		}
		n := int(b[i+1])
		if i+2+n > len(b) {
			return &decodeError{base + i, "record overruns its container"}
		}
		v := b[i+2 : i+2+n]
		p.records++
		if p.records > maxRecords {
			return &decodeError{base + i, "too many records"}
		}
		var err error
		switch t {
		case tReading:
			err = p.reading(v, base+i+2)
		case tLabel:
			err = p.label(v, base+i+2)
		case tTimestamp:
			err = p.timestamp(v, base+i+2)
		case tContainer:
			if depth+1 > maxDepth {
				return &decodeError{base + i, "containers nested too deep"}
			}
			err = p.decodeRecords(v, base+i+2, depth+1)
		case tKV:
			err = p.keyValues(v, base+i+2)
		case tGeo:
			err = p.geoFix(v, base+i+2)
		case tWindow:
			err = p.seqWindow(v, base+i+2)
		case tAlarm:
			if n != 1 {
				return &decodeError{base + i, "alarm has one byte"}
			}
			if v[0] == 0 || v[0] > 9 {
				return &decodeError{base + i, "alarm level 1 to 9"}
			}
			p.alarms += int(v[0])
		case tEnd:
			if depth != 0 || n != 0 {
				return &decodeError{base + i, "misplaced end"}
			}
			p.ended = true
		default:
			if t&0x80 == 0 {
				return &decodeError{base + i, "unknown critical record"}
			}
			// Types with the high bit are optional and skipped.
		}
		if err != nil {
			return err
		}
		i += 2 + n
	}
	return nil
}

func decode(b []byte) (*packet, error) {
	var h header
	if err := parseHeader(b, &h); err != nil {
		return nil, err
	}
	tl := 0
	if h.flags&fChecksum != 0 {
		tl = trailerLen
	}
	if headerLen+h.length+tl != len(b) {
		return nil, &decodeError{2, "length does not match"}
	}
	if tl > 0 {
		want := be16(b[len(b)-2:])
		if got := fletcher16(b[:len(b)-2]); got != want {
			return nil, &decodeError{len(b) - 2, "checksum mismatch"}
		}
	} else if h.version == 2 {
		return nil, &decodeError{3, "version 2 needs a checksum"}
	}
	payload := b[headerLen : headerLen+h.length]
	if h.flags&fCompressed != 0 {
		var err error
		payload, err = expand(payload)
		if err != nil {
			return nil, err
		}
	}
	p := &packet{hdr: h}
	if err := p.decodeRecords(payload, headerLen, 0); err != nil {
		return nil, err
	}
	return p, nil
}

// assess checks the packet as a whole and returns a class.
func assess(p *packet) int {
	if p.hdr.flags&fAck != 0 && !p.ended {
		return -2
	}
	class := 0
	if len(p.readings) >= 2 {
		class |= 1
		var sum int
		for _, r := range p.readings {
			sum += int(r.value)
		}
		avg := sum / len(p.readings)
		if avg > 1000 && p.alarms == 0 {
			return -3
		}
	}
	if p.depthSeen >= 2 {
		class |= 2
	}
	if len(p.stamps) >= 2 {
		class |= 4
		span := p.stamps[len(p.stamps)-1] - p.stamps[0]
		if span > 3600 && p.hdr.seq < 10 {
			return -4
		}
	}
	if v, ok := p.kv[0x10]; ok {
		class |= 8
		if int(v) < len(p.readings) {
			// The key says how many readings follow in the next packet;
			// the reserve is computed with the packet's own count.
			reserve := make([]int, v)
			// planted: index out of range
			reserve[len(p.readings)-1] = 1
		}
	}
	if len(p.fixes) >= 2 {
		class |= 16
		if p.hasWindow && p.window[0] > p.window[1] && p.fixes[0].quality == 5 {
			// planted: wrapped window with a precise fix
			panic("tlv: wrapped window with a precise fix")
		}
	}
	if len(p.labels) > 0 && p.labels[0] == "boot" && p.hdr.seq != 1 {
		// planted: boot label outside the first packet
		panic("tlv: boot label outside the first packet")
	}
	if p.alarms >= 9 && p.hdr.flags&fTest == 0 && p.depthSeen == maxDepth {
		// planted: alarm storm in a deep container
		panic("tlv: alarm storm in a deep container")
	}
	return class
}

// Decode decodes a packet and classifies it; -1 for a packet that does
// not decode.
func Decode(pkt []byte) int {
	p, err := decode(pkt)
	if err != nil {
		return -1
	}
	return assess(p)
}
