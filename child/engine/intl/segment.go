package intl

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// segmentOptions are Intl.Segmenter's options, as the prelude reads
// them.
type segmentOptions struct {
	LocaleMatcher *string `json:"localeMatcher"`
	Granularity   *string `json:"granularity"`
}

// segmentResolved is a Segmenter's resolved options: its handle.
type segmentResolved struct {
	Locale      string `json:"locale"`
	Granularity string `json:"granularity"`
}

func resolveSegmenter(locales []string, o *segmentOptions) (*segmentResolved, error) {
	const ctor = "Segmenter"
	if _, err := oneOf(ctor, "localeMatcher", o.LocaleMatcher, "best fit", "lookup", "best fit"); err != nil {
		return nil, err
	}
	loc, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	g, err := oneOf(ctor, "granularity", o.Granularity, "grapheme", "grapheme", "word", "sentence")
	if err != nil {
		return nil, err
	}
	return &segmentResolved{Locale: loc.locale, Granularity: g}, nil
}

// segment splits text by granularity ("grapheme", "word" or
// "sentence", UAX #29's default rules): the end of each segment in
// UTF-16 code units (JavaScript's string indices), comma-separated, a
// "w" after the end of a word-like word segment. Lone surrogates arrive
// as U+FFFD, one code unit as they were, so the indices are the guest's.
func segment(granularity, text string) (string, error) {
	var out strings.Builder
	units := 0
	emit := func(seg string, isWord bool) {
		units += utf16Len(seg)
		if out.Len() > 0 {
			out.WriteByte(',')
		}
		out.WriteString(strconv.Itoa(units))
		if isWord {
			out.WriteByte('w')
		}
	}
	state := -1
	var seg string
	for text != "" {
		switch granularity {
		case "grapheme":
			seg, text, _, state = uniseg.FirstGraphemeClusterInString(text, state)
			// Unicode 15.1's rule GB9c (uniseg has 15.0): a conjunct, a
			// consonant, linkers (viramas) and marks, goes on into the
			// next consonant ("क्ष" is one grapheme, not two).
			for text != "" && endsInLinker(seg) && startsWithConsonant(text) {
				var next string
				next, text, _, state = uniseg.FirstGraphemeClusterInString(text, state)
				seg += next
			}
			emit(seg, false)
		case "word":
			seg, text, state = uniseg.FirstWordInString(text, state)
			emit(seg, wordLike(seg))
		case "sentence":
			seg, text, state = uniseg.FirstSentenceInString(text, state)
			emit(seg, false)
		default:
			return "", typeError("intl: bad granularity")
		}
	}
	return out.String(), nil
}

// wordLike is ICU's rule status for a word: a letter (ideographs and
// kana among them) or a number makes one; spaces, punctuation, symbols,
// emoji and a lone connector ("_") do not.
func wordLike(seg string) bool {
	for _, r := range seg {
		if unicode.IsLetter(r) || unicode.Is(unicode.Nd, r) {
			return true
		}
	}
	return false
}

// endsInLinker: seg ends in an Indic conjunct's first half, a
// consonant then linkers and marks with at least one linker
// (Indic_Conjunct_Break Consonant [Extend Linker]* Linker [Extend Linker]*).
func endsInLinker(seg string) bool {
	linker := false
	for len(seg) > 0 {
		r, n := utf8.DecodeLastRuneInString(seg)
		switch {
		case isConjunctLinker(r):
			linker = true
		case isConjunctConsonant(r):
			return linker
		case !unicode.In(r, unicode.Mn, unicode.Me) && r != 0x200D:
			return false
		}
		seg = seg[:len(seg)-n]
	}
	return false
}

func startsWithConsonant(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isConjunctConsonant(r)
}

// isConjunctLinker is Indic_Conjunct_Break=Linker: the viramas of
// Devanagari, Bengali, Gujarati, Oriya, Telugu and Malayalam.
func isConjunctLinker(r rune) bool {
	switch r {
	case 0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D:
		return true
	}
	return false
}

// conjunctConsonants is Indic_Conjunct_Break=Consonant (Unicode 15.1).
var conjunctConsonants = &unicode.RangeTable{R16: []unicode.Range16{
	{0x0915, 0x0939, 1}, {0x0958, 0x095F, 1}, {0x0978, 0x097F, 1},
	{0x0995, 0x09A8, 1}, {0x09AA, 0x09B0, 1}, {0x09B2, 0x09B2, 1}, {0x09B6, 0x09B9, 1},
	{0x09DC, 0x09DD, 1}, {0x09DF, 0x09DF, 1}, {0x09F0, 0x09F1, 1},
	{0x0A95, 0x0AA8, 1}, {0x0AAA, 0x0AB0, 1}, {0x0AB2, 0x0AB3, 1}, {0x0AB5, 0x0AB9, 1}, {0x0AF9, 0x0AF9, 1},
	{0x0B15, 0x0B28, 1}, {0x0B2A, 0x0B30, 1}, {0x0B32, 0x0B33, 1}, {0x0B35, 0x0B39, 1},
	{0x0B5C, 0x0B5D, 1}, {0x0B5F, 0x0B5F, 1}, {0x0B71, 0x0B71, 1},
	{0x0C15, 0x0C28, 1}, {0x0C2A, 0x0C39, 1}, {0x0C58, 0x0C5A, 1},
	{0x0D15, 0x0D3A, 1},
}}

func isConjunctConsonant(r rune) bool { return unicode.Is(conjunctConsonants, r) }

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 && r <= utf8.MaxRune {
			n++
		}
	}
	return n
}
