#version 150 fhqwhgads
