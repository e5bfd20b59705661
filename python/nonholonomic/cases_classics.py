"""Verification cases of the classical rolling bodies: rolling disk, Chaplygin ball, Chaplygin sleigh, wheelset."""

from __future__ import annotations


def classic_cases() -> list:
    return []
