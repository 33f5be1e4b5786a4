// OAuth PKCE: a code verifier from random bytes (only its shape is
// returned) and the S256 challenge of RFC 7636's fixed example verifier.
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const challenge = async (verifier) => b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
const random = b64url(crypto.getRandomValues(new Uint8Array(32)));
const fixed = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const auth = new URL("https://auth.example.com/authorize");
auth.search = new URLSearchParams({ response_type: "code", client_id: "app", redirect_uri: "https://app.example.com/cb", code_challenge: await challenge(fixed), code_challenge_method: "S256", state: "xyz" });
return { randomLength: random.length, randomAlphabet: /^[A-Za-z0-9_-]+$/.test(random), challenge: await challenge(fixed), url: auth.href };
