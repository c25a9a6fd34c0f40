"""metrics/cider"""
