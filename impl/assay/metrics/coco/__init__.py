"""metrics/coco"""
