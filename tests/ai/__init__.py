"""Tests of azul_rules: ai."""
