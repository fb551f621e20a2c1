"""Tests of azul_rules: packaging."""
