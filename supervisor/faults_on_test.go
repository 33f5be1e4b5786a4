//go:build wardenfaults

package supervisor

// faultsBuilt says the test child runs //fault: requests (child/faults.go).
const faultsBuilt = true
