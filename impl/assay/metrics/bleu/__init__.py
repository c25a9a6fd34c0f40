"""metrics/bleu"""
