"""Tests of azul_rules: docs."""
