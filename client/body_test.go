package client

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestRequestBodyCarriesTheRequest: the body the client sends has every
// member of contract.Request's JSON but the id (a header), imports and
// park_scope (the daemon sets them from the tenant): a field added to the request
// and left out here fails (one was: language and format reached no
// daemon).
func TestRequestBodyCarriesTheRequest(t *testing.T) {
	names := func(typ reflect.Type) []string {
		var out []string
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			out = append(out, name)
		}
		slices.Sort(out)
		return out
	}
	var want []string
	for _, n := range names(reflect.TypeFor[contract.Request]()) {
		if n != "id" && n != "imports" && n != "park_scope" {
			want = append(want, n)
		}
	}
	if got := names(reflect.TypeFor[requestBody]()); !slices.Equal(got, want) {
		t.Fatalf("requestBody has %v, want %v", got, want)
	}
}
