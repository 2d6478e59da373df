"""Taverna: an online club for Muggins dominoes, Muggins cards and Mus."""

__version__ = "0.1.0"
