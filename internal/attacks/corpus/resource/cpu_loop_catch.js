// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: vm2 timeout bypass reports (catching the interrupt)
for (;;) { try { for (;;) {} } catch (e) {} finally { continue; } }
