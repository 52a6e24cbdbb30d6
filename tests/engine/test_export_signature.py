"""The pieces of the export's checks in the pure engine: Ed25519 as RFC 8032 defines it
(its test vectors), the signed bytes of a document, the variant against the rules, and
the single-file verifier built from the engine's own modules."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.engine import RuleSet, ed25519
from games.engine.bundle import modules, single_file_verifier
from games.engine.verify import VerificationError, sign_export, signed_bytes, verify_export

# RFC 8032 section 7.1, TEST 1 and TEST 2: (secret, public, message, signature).
VECTORS = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e3970"
        "1cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613"
        "d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
]


@pytest.mark.parametrize(("secret", "public", "message", "signature"), VECTORS)
def test_ed25519_gives_the_rfc_8032_test_vectors(secret, public, message, signature):
    secret_b, public_b = bytes.fromhex(secret), bytes.fromhex(public)
    message_b, signature_b = bytes.fromhex(message), bytes.fromhex(signature)
    assert ed25519.public_key(secret_b) == public_b
    assert ed25519.sign(secret_b, message_b) == signature_b
    assert ed25519.verify(public_b, message_b, signature_b)
    assert not ed25519.verify(public_b, message_b + b"!", signature_b)
    flipped = bytes([signature_b[0] ^ 1]) + signature_b[1:]
    assert not ed25519.verify(public_b, message_b, flipped)
    # s + q is the same point arithmetic, but RFC 8032 refuses s >= q (malleability).
    s = int.from_bytes(signature_b[32:], "little") + ed25519.Q
    assert not ed25519.verify(public_b, message_b, signature_b[:32] + s.to_bytes(32, "little"))


def test_the_signed_bytes_are_every_field_but_the_signature_in_one_spelling():
    document = {"id": 3, "b": [1, "é"], "a": None, "signature": {"value": "x"}}
    assert signed_bytes(document) == b'{"a":null,"b":[1,"\\u00e9"],"id":3}'
    signed = sign_export(document, bytes(32))
    assert signed_bytes(signed) == signed_bytes(document)
    assert ed25519.verify(
        bytes.fromhex(signed["signature"]["key"]),
        signed_bytes(document),
        bytes.fromhex(signed["signature"]["value"]),
    )


@pytest.mark.parametrize(
    ("variant", "rules", "problem"),
    [
        ("oklahoma", RuleSet.default(), "rules.oklahoma true, not false"),
        ("default", RuleSet.oklahoma_gin(), "rules.oklahoma false, not true"),
        ("default", RuleSet.straight_gin(), "rules.straight false, not true"),
        ("straight", RuleSet.default(), "rules.straight true, not false"),
        ("time_freedom", RuleSet.default(), "no clock"),
        ("freestyle", RuleSet.default(), "unknown variant 'freestyle'"),
    ],
)
def test_a_variant_the_rules_contradict_is_named(variant, rules, problem):
    assert problem in rules.variant_problem(variant)


def test_every_variant_fits_its_preset_and_its_tweaks():
    for name, rules in RuleSet.PRESETS.items():
        assert rules.variant_problem(name) is None
        assert rules.replace(target_score=250, gin_bonus=40).variant_problem(name) is None
    # Time Freedom is Default with no clock; Default without a clock is still Default.
    assert RuleSet.time_freedom().variant_problem("default") is None


def test_an_unsigned_or_old_export_is_refused_with_the_reason():
    with pytest.raises(VerificationError, match="gin-match/1 export carries no signature"):
        verify_export({"format": "gin-match/1"})


def test_the_single_file_carries_the_engine_modules_word_for_word(tmp_path):
    assert {"verify", "ed25519", "state", "rules", "scoring", "dealing", "clock"} <= set(modules())
    text = single_file_verifier(site_key="ab" * 32, site="https://gin.example")
    assert "SITE_KEY = 'abababab" in text and "https://gin.example/export/key.json" in text
    path = tmp_path / "verify_gin.py"
    path.write_text(text)
    run = subprocess.run(
        [sys.executable, "-I", "-S", str(path), "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "usage: python3 verify_gin.py FILE" in run.stderr
