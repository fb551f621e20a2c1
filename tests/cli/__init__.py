"""Tests of azul_rules: cli."""
