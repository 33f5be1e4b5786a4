// expect: ResourceError/memory
// category: resource
// timeout: 10s
// source: original (a 16 MiB TextDecoder input under the default 16 MiB memory limit: the limit caps the whole QuickJS heap, so the input alone does not fit and the execution ends before any byte is decoded)
const bytes = new Uint8Array(16 << 20).fill(0x61);
return new TextDecoder().decode(bytes).length;
