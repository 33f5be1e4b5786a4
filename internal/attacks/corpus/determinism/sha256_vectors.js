// expect: ok
// category: determinism
// value: ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad","a1003f7d04a4115711d0b48a2eaf1359ce565d2d2a6fd65098dfcffadeeef59f","77710aedc74ecfa33685e33a6c7df5cc83004da1bdcef7fb280f5c2b2e97e0a5","f0443a342c5ef54783a111b51ba56c938e474c32324d90c3a60c9c8e3a37e2d9","41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"]
// source: FIPS 180-4 test vectors and Go's crypto/sha256
return ["", "abc", "héllo wörld", "日本語", "\u{1F600}", "a".repeat(1000)].map(sha256);
