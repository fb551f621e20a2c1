"""Tests of azul_rules: web."""
