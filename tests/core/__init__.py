"""Tests of azul_rules: core."""
