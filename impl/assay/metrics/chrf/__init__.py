"""metrics/chrf"""
