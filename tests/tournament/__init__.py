"""Tests of azul_rules: tournament."""
