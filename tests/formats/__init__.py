"""Tests of azul_rules: formats."""
